// The PostgreSQL store's pool and the time bounds on it.
import type { PgPool as Pool, PgPoolClient as PoolClient } from "./pg-client";
import { loadDriver } from "./load-driver";
import { type PostgresBounds, isBrokenConnection, messageOf } from "./postgres-errors";
import { TaskStoreConfigError } from "./task-store-errors";

type Pg = typeof import("pg");

/** Where the PostgreSQL store connects, and the bounds on every wait. */
export interface PostgresPoolOptions {
  /** A `postgres://` URL; or give `pool`. */
  readonly connectionString?: string;
  /** A pool the app owns (the store never ends it); or give `connectionString`. */
  readonly pool?: Pool;
  /** Connections in the store's own pool (default 10; one of them listens for changes). */
  readonly poolSize?: number;
  /**
   * How long an operation waits for a connection (a free one from the pool, or a new one being
   * opened) before failing with TaskStoreUnavailableError (default 5000 ms; pg's `connectionTimeoutMillis`).
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long the database may run one statement before it cancels it (`statement_timeout`,
   * default 5000 ms). The store's statements touch a few rows; this bounds a lock wait.
   */
  readonly statementTimeoutMs?: number;
  /**
   * How long the store waits for the answer to one query before it gives up and drops the
   * connection (pg's client-side `query_timeout`, default 6000 ms): what bounds a frozen server
   * or a network partition that never resets the connection. Keep it above `statementTimeoutMs`.
   */
  readonly queryTimeoutMs?: number;
  /**
   * How long the database lets a transaction of the store sit idle before it ends the session
   * (`idle_in_transaction_session_timeout`, default 10000 ms), so a stalled app process never
   * holds row or advisory locks that other instances wait for.
   */
  readonly idleInTransactionTimeoutMs?: number;
}

/** The defaults of the time bounds (documented in docs/tasks.md). */
export const POSTGRES_TIMEOUT_DEFAULTS = Object.freeze({
  connectTimeoutMs: 5000,
  statementTimeoutMs: 5000,
  queryTimeoutMs: 6000,
  idleInTransactionTimeoutMs: 10_000,
});
/** The options that only apply to a pool the store creates. */
const OWN_POOL_OPTIONS = ["poolSize", "connectTimeoutMs", "statementTimeoutMs", "queryTimeoutMs", "idleInTransactionTimeoutMs"] as const;
/** The largest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A positive whole number of milliseconds a timer can hold, or the default. */
function millis(options: PostgresPoolOptions, name: keyof typeof POSTGRES_TIMEOUT_DEFAULTS): number {
  const value = options[name] ?? POSTGRES_TIMEOUT_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new TaskStoreConfigError(
      `The PostgreSQL task store's ${name} must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * The store's pool: the app's own (whose settings apply; the store's bounds beside it are
 * refused, as they could not apply), or one made from `connectionString` with every wait bounded.
 */
export function postgresPool(options: PostgresPoolOptions): { pool: Pool; ownsPool: boolean; bounds: PostgresBounds } {
  const poolSize = options.poolSize ?? 10;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1)
    throw new TaskStoreConfigError(`The PostgreSQL task store's poolSize must be a positive integer, got ${String(poolSize)}`);
  const connectTimeoutMs = millis(options, "connectTimeoutMs");
  const statementTimeoutMs = millis(options, "statementTimeoutMs");
  const queryTimeoutMs = millis(options, "queryTimeoutMs");
  const idleInTransactionTimeoutMs = millis(options, "idleInTransactionTimeoutMs");
  if (options.pool) {
    const mine = OWN_POOL_OPTIONS.filter((name) => options[name] !== undefined);
    if (mine.length > 0) {
      throw new TaskStoreConfigError(
        `The PostgreSQL task store's ${mine.join(", ")} only apply to the pool it creates from connectionString; with your own pool, set max, connectionTimeoutMillis, statement_timeout, query_timeout and idle_in_transaction_session_timeout on it`,
      );
    }
    const { connectionTimeoutMillis, max } = options.pool.options;
    const queryTimeout = (options.pool.options as { query_timeout?: number }).query_timeout;
    return {
      pool: options.pool,
      ownsPool: false,
      bounds: { connectTimeoutMs: Number(connectionTimeoutMillis ?? 0), queryTimeoutMs: Number(queryTimeout ?? 0), poolSize: max ?? 10 },
    };
  }
  const pg = loadDriver<Pg>("pg", "PostgreSQL");
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: poolSize,
    connectionTimeoutMillis: connectTimeoutMs,
    // Sent in the startup packet: every session of the store carries them from its first statement.
    statement_timeout: statementTimeoutMs,
    query_timeout: queryTimeoutMs,
    idle_in_transaction_session_timeout: idleInTransactionTimeoutMs,
    application_name: "roundtrip-mcp",
  });
  return { pool, ownsPool: true, bounds: { connectTimeoutMs, queryTimeoutMs, poolSize } };
}

/** See PoolGuard's onConnect: the failure surfaces, and is logged, where the connection is used. */
const ignoreHere = (): void => undefined;

/**
 * The listeners a pool needs for its whole life, and a bounded end. Every new connection gets an
 * 'error' listener at birth: the pool drops its own the moment it hands a connection out, and an
 * error parsed from the same packet as the connection's readiness is emitted before
 * `await pool.connect()` resumes and the user attaches its own; with no listener at all, that ends
 * the process. The error also fails the connection's next query, which is where it is handled.
 * An idle connection's failure, which the pool emits, is logged.
 */
export class PoolGuard {
  /** The connections of a pool the owner created, until the pool has removed them (for a bounded close()). */
  private readonly connections = new Set<PoolClient>();
  private readonly onConnect = (client: PoolClient) => {
    if (this.ownsPool) this.connections.add(client);
    client.on("error", ignoreHere);
  };
  private readonly onRemove = (client: PoolClient) => void this.connections.delete(client);
  private readonly onPoolError = (error: Error) =>
    this.warn(`A pooled PostgreSQL connection of the ${this.noun} failed; the pool replaces it`, { error: messageOf(error) });

  /** `noun` names the owner in the log ("task store", "message bus"). */
  constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    private readonly noun: string,
    private readonly warn: (message: string, fields: Record<string, unknown>) => void,
  ) {
    pool.on("error", this.onPoolError);
    pool.on("connect", this.onConnect);
    if (ownsPool) pool.on("remove", this.onRemove);
  }

  /**
   * Ends a pool the owner created; detaches from one the app gave. The pool is done once its
   * connections are handed back; each then says goodbye. A frozen server never answers it, so
   * wait at most `queryTimeoutMs`, then drop the rest.
   */
  async close(queryTimeoutMs: number): Promise<void> {
    if (!this.ownsPool) {
      this.pool.off("error", this.onPoolError);
      this.pool.off("connect", this.onConnect);
      return;
    }
    if (this.pool.ended || this.pool.ending) return;
    await this.pool.end();
    let timer: NodeJS.Timeout | undefined;
    let check = (): void => undefined;
    const gone = new Promise<true>((resolve) => {
      check = () => void (this.connections.size === 0 && resolve(true));
      this.pool.on("remove", check);
      check();
    });
    const closed = await Promise.race([gone, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), queryTimeoutMs)))]);
    clearTimeout(timer);
    this.pool.off("remove", check);
    if (!closed) {
      this.warn(`The PostgreSQL ${this.noun}'s connections did not close in time; dropping them`, {
        waitedMs: queryTimeoutMs,
        connections: this.connections.size,
      });
      // pg has no public way to drop a connection whose goodbye is never answered: end its socket.
      for (const client of this.connections) (client as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      this.connections.clear();
    }
  }
}

/**
 * Runs `work` in a transaction on a pooled connection. While the owner holds the connection the
 * pool listens to it no more, so this does: a fatal error between two queries (the server
 * shutting down, pg_terminate_backend, right after COMMIT) is logged, never thrown out of an
 * event. A connection that failed or timed out goes back with `release(error)`, so the pool
 * discards it and opens a fresh one when the database returns.
 */
export async function pgTransaction<T>(
  pool: Pool,
  noun: string,
  work: (client: PoolClient) => Promise<T>,
  warn: (message: string, fields: Record<string, unknown>) => void,
): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    if (failure === undefined) warn(`A PostgreSQL connection of the ${noun} failed while in use`, { error: messageOf(error) });
    failure ??= error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // The connection failed first: its error (say 57P01 or 25P03) says why, not the "not queryable" that followed.
    if (failure !== undefined) throw failure;
    if (isBrokenConnection(error)) failure = error as Error;
    else await client.query("ROLLBACK").catch((rollback: Error) => (failure = rollback));
    throw error;
  } finally {
    // Released first: the pool's own listener is back before ours goes, so no error falls between.
    client.release(failure);
    client.off("error", onError);
  }
}
