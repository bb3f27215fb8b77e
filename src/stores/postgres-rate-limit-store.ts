import type { RateDecision, RateLimit } from "../protocol/rate-limit";
import type { PgPool } from "./pg-client";
import { postgresPool, type PostgresPoolOptions } from "./postgres-pool";
import type { RateLimitStore } from "./rate-limit-store";
import type { StoreLogger } from "./task-store";
import { TaskStoreConfigError } from "./task-store-errors";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,39}$/;
/** Every this many calls, one instance deletes the buckets that have refilled (a full bucket is as good as none). */
const SWEEP_EVERY = 1000;

export interface PostgresRateLimitStoreOptions extends PostgresPoolOptions {
  /** The schema holding the table `roundtrip_rate_buckets` (created if missing); default "public". */
  readonly schema?: string;
  /** Where an idle connection's error is reported (the pool it made would otherwise throw it). Default none. */
  readonly logger?: StoreLogger;
}

/**
 * Rate limit buckets in one PostgreSQL table: every instance on the database spends the same
 * budget. One statement per call (an upsert under the row's lock, on the database's clock, so
 * instances with skewed clocks agree); buckets that have refilled are deleted now and then, so
 * the table holds only the principals active within their window.
 *
 * When the database cannot answer, `take` rejects; the app's limiter then decides on its own
 * per-instance buckets (fail-open to the per-instance limit, see `RateLimitOptions.storeTimeoutMs`).
 *
 * @example const store = await PostgresRateLimitStore.open({ connectionString: process.env.DATABASE_URL });
 */
export class PostgresRateLimitStore implements RateLimitStore {
  private calls = 0;
  private readonly upsert: string;
  private readonly sweepSql: string;

  private constructor(
    private readonly pool: PgPool,
    private readonly ownsPool: boolean,
    table: string,
  ) {
    // The bucket refilled since its last call, capped at the limit ($2 calls per $3 ms).
    const refilled = `LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM statement_timestamp() - b.at)) * 1000 * $2::float8 / $3::float8)`;
    const after = `(CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END)`;
    this.upsert = `INSERT INTO ${table} AS b (key, tokens, allowed, at, full_at)
      VALUES ($1, $2::float8 - 1, true, statement_timestamp(), statement_timestamp() + make_interval(secs => $3::float8 / $2::float8 / 1000))
      ON CONFLICT (key) DO UPDATE SET
        tokens = ${after},
        allowed = ${refilled} >= 1,
        at = statement_timestamp(),
        full_at = statement_timestamp() + make_interval(secs => ($2::float8 - ${after}) * $3::float8 / $2::float8 / 1000)
      RETURNING tokens, allowed`;
    this.sweepSql = `DELETE FROM ${table} WHERE full_at < statement_timestamp()`;
  }

  /** Connects and creates the table if missing (idempotent, safe when several instances open at once). */
  static async open(options: PostgresRateLimitStoreOptions): Promise<PostgresRateLimitStore> {
    const schema = options.schema ?? "public";
    if (!SCHEMA_NAME.test(schema))
      throw new TaskStoreConfigError(`The PostgreSQL rate limit store's schema name must match ${SCHEMA_NAME.source}`);
    if ((options.pool === undefined) === (options.connectionString === undefined))
      throw new TaskStoreConfigError("The PostgreSQL rate limit store needs exactly one of connectionString and pool");
    const { pool, ownsPool } = postgresPool(options);
    // An idle connection that breaks (the server restarted) must never become an uncaught error.
    if (ownsPool) pool.on("error", (error) => options.logger?.warn("rate limit store: idle connection error", { error: error.message }));
    const table = `${schema}.roundtrip_rate_buckets`;
    try {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`roundtrip_rate_buckets/${schema}`]);
        try {
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
          await client.query(
            `CREATE TABLE IF NOT EXISTS ${table} (
              key     text             NOT NULL PRIMARY KEY,
              tokens  double precision NOT NULL,
              allowed boolean          NOT NULL,
              at      timestamptz      NOT NULL,
              full_at timestamptz      NOT NULL
            )`,
          );
          await client.query(`CREATE INDEX IF NOT EXISTS roundtrip_rate_buckets_by_full_at ON ${table} (full_at)`);
        } finally {
          await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [`roundtrip_rate_buckets/${schema}`]);
        }
      } finally {
        client.release();
      }
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => undefined);
      throw error;
    }
    return new PostgresRateLimitStore(pool, ownsPool, table);
  }

  async take(key: string, rule: RateLimit): Promise<RateDecision> {
    if (++this.calls % SWEEP_EVERY === 0) void this.sweep().catch(() => undefined);
    const { rows } = await this.pool.query<{ tokens: number; allowed: boolean }>(this.upsert, [key, rule.limit, rule.windowMs]);
    // An upsert with RETURNING returns its one row, inserted or updated.
    const { tokens, allowed } = rows[0]!;
    if (allowed) return { allowed, remaining: Math.floor(tokens), retryAfterMs: 0 };
    return { allowed, remaining: 0, retryAfterMs: Math.max(1, Math.ceil(((1 - tokens) * rule.windowMs) / rule.limit)) };
  }

  /** Deletes the buckets that have refilled; resolves to how many. */
  async sweep(): Promise<number> {
    return (await this.pool.query(this.sweepSql)).rowCount ?? 0;
  }

  /** Ends the pool it made from `connectionString` (a pool you passed stays yours). Idempotent. */
  async close(): Promise<void> {
    if (this.ownsPool && !this.pool.ending && !this.pool.ended) await this.pool.end();
  }
}
