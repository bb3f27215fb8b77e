import type { JsonValue } from "./json-value";
import type { PgPool as Pool } from "./pg-client";
import { type PostgresBounds, translatePostgresError } from "./postgres-errors";
import { pgTransaction } from "./postgres-pool";
import type { AnswerVerdict, CallRow, SessionSettings, SessionStateStore, StreamEventRow } from "./session-state";
import type { StoreLogger } from "./task-store";

/** Every this many events a session appended here, its oldest beyond the bound are deleted. */
const PRUNE_EVERY = 32;
/** Sessions counted for pruning at once; the counts start again past it. */
const MAX_COUNTED_SESSIONS = 10_000;
/** A dead instance's heartbeat row is deleted this long after it stopped. */
const DEAD_ROWS_KEPT_MS = 3_600_000;

interface CallRecord {
  stream: string;
  session: string;
  owner: string | null;
  gen: number;
  request: JsonValue;
  round: JsonValue;
  waiting: string[];
  answers: Record<string, JsonValue>;
  finished: boolean;
}

/**
 * The 2025 sessions' shared state in four tables of the PostgreSQL bus's schema, on its pool:
 * `roundtrip_session_events` (the streams' replay log), `roundtrip_session_calls` (calls waiting
 * for the client), `roundtrip_session_settings` (log level, subscriptions) and
 * `roundtrip_instances` (heartbeats). Every time it compares is the database's
 * (`clock_timestamp()`). Created by the first instance that needs them, under an advisory lock.
 */
export class PostgresSessionState implements SessionStateStore {
  readonly shared = true;
  private ready?: Promise<void>;
  private readonly counted = new Map<string, number>();
  private readonly t: { events: string; calls: string; settings: string; instances: string };

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly bounds: PostgresBounds,
    private readonly logger: StoreLogger,
  ) {
    this.t = {
      events: `${schema}.roundtrip_session_events`,
      calls: `${schema}.roundtrip_session_calls`,
      settings: `${schema}.roundtrip_session_settings`,
      instances: `${schema}.roundtrip_instances`,
    };
  }

  async appendEvents(rows: readonly StreamEventRow[], keepPerSession: number): Promise<void> {
    if (rows.length === 0) return;
    await this.run(
      `INSERT INTO ${this.t.events} (stream, session, gen, seq, body)
      SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[]) ON CONFLICT DO NOTHING`,
      [rows.map((r) => r.stream), rows.map((r) => r.session), rows.map((r) => r.gen), rows.map((r) => r.seq), rows.map((r) => r.body)],
    );
    for (const row of rows) {
      const count = (this.counted.get(row.session) ?? 0) + 1;
      if (count < PRUNE_EVERY) {
        if (this.counted.size >= MAX_COUNTED_SESSIONS) this.counted.clear();
        this.counted.set(row.session, count);
        continue;
      }
      this.counted.delete(row.session);
      await this.run(
        `DELETE FROM ${this.t.events} WHERE session = $1 AND id <= (SELECT id FROM ${this.t.events} WHERE session = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
        [row.session, keepPerSession],
      );
    }
  }

  async eventsAfter(stream: string, gen: number, seq: number): Promise<StreamEventRow[]> {
    const { rows } = await this.run(
      `SELECT stream, session, gen, seq, body FROM ${this.t.events} WHERE stream = $1 AND (gen, seq) > ($2, $3) ORDER BY gen, seq`,
      [stream, gen, seq],
    );
    return rows as StreamEventRow[];
  }

  async saveRound(call: CallRow): Promise<boolean> {
    const { rows } = await this.run(
      `INSERT INTO ${this.t.calls} AS c (stream, session, owner, gen, request, round, waiting, answers, finished)
       VALUES ($1, $2, $3, $4, $5, $6, $7, '{}', false)
       ON CONFLICT (stream) DO UPDATE SET round = EXCLUDED.round, waiting = EXCLUDED.waiting, answers = '{}', updated_at = clock_timestamp()
         WHERE c.gen = EXCLUDED.gen AND c.owner IS NOT DISTINCT FROM EXCLUDED.owner AND NOT c.finished
       RETURNING 1`,
      [call.stream, call.session, call.owner, call.gen, json(call.request), json(call.round), json(call.waiting)],
    );
    return rows.length === 1;
  }

  async loadCall(stream: string): Promise<CallRow | undefined> {
    const { rows } = await this.run(`SELECT ${CALL_COLUMNS} FROM ${this.t.calls} WHERE stream = $1`, [stream]);
    return rows[0] as CallRecord | undefined;
  }

  async recordAnswer(stream: string, wireId: string, answer: JsonValue): Promise<AnswerVerdict> {
    const { rows } = await this.run(
      `UPDATE ${this.t.calls} SET waiting = waiting - $2::text, answers = answers || jsonb_build_object($2::text, $3::jsonb), updated_at = clock_timestamp()
       WHERE stream = $1 AND NOT finished AND waiting ? $2::text RETURNING owner, gen`,
      [stream, wireId, json(answer)],
    );
    if (rows.length === 1) return { kind: "recorded", owner: rows[0].owner as string | null, gen: rows[0].gen as number };
    const { rows: held } = await this.run(`SELECT 1 FROM ${this.t.calls} WHERE stream = $1`, [stream]);
    return held.length === 1 ? { kind: "not-waiting" } : { kind: "unknown" };
  }

  async finishCall(stream: string, gen: number): Promise<void> {
    await this.run(`UPDATE ${this.t.calls} SET finished = true, updated_at = clock_timestamp() WHERE stream = $1 AND gen = $2`, [
      stream,
      gen,
    ]);
  }

  async releaseCall(stream: string, gen: number, owner: string): Promise<void> {
    await this.run(
      `UPDATE ${this.t.calls} SET owner = NULL, updated_at = clock_timestamp() WHERE stream = $1 AND gen = $2 AND owner = $3`,
      [stream, gen, owner],
    );
  }

  async claimCall(stream: string, gen: number, owner: string): Promise<CallRow | undefined> {
    const { rows } = await this.run(
      `UPDATE ${this.t.calls} c SET owner = $3, gen = c.gen + 1, updated_at = clock_timestamp()
       WHERE c.stream = $1 AND c.gen = $2 AND NOT c.finished
         AND (c.owner IS NULL OR NOT EXISTS (SELECT 1 FROM ${this.t.instances} i WHERE i.tag = c.owner AND i.alive_until > clock_timestamp()))
       RETURNING ${CALL_COLUMNS.replace(/(\w+)/g, "c.$1")}`,
      [stream, gen, owner],
    );
    return rows[0] as CallRecord | undefined;
  }

  async beat(tag: string, ttlMs: number): Promise<void> {
    await this.run(
      `INSERT INTO ${this.t.instances} (tag, alive_until) VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
       ON CONFLICT (tag) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
      [tag, ttlMs],
    );
  }

  async retire(tag: string): Promise<void> {
    await this.run(`DELETE FROM ${this.t.instances} WHERE tag = $1`, [tag]);
  }

  async isAlive(tag: string): Promise<boolean> {
    const { rows } = await this.run(`SELECT 1 FROM ${this.t.instances} WHERE tag = $1 AND alive_until > clock_timestamp()`, [tag]);
    return rows.length === 1;
  }

  async loadSettings(session: string): Promise<SessionSettings | undefined> {
    const { rows } = await this.run(
      `SELECT level, subscriptions FROM ${this.t.settings} WHERE session = $1 AND expires_at > clock_timestamp()`,
      [session],
    );
    const row = rows[0] as { level: string | null; subscriptions: string[] } | undefined;
    return row && { ...(row.level !== null && { level: row.level }), subscriptions: row.subscriptions };
  }

  async saveSettings(session: string, settings: SessionSettings, lifetimeMs: number): Promise<void> {
    await this.run(
      `INSERT INTO ${this.t.settings} (session, level, subscriptions, expires_at) VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
       ON CONFLICT (session) DO UPDATE SET level = EXCLUDED.level, subscriptions = EXCLUDED.subscriptions`,
      [session, settings.level ?? null, json(settings.subscriptions), lifetimeMs],
    );
  }

  async dropSettings(session: string): Promise<void> {
    await this.run(`DELETE FROM ${this.t.settings} WHERE session = $1`, [session]);
  }

  async sweep(lifetimeMs: number): Promise<void> {
    const older = `clock_timestamp() - $1 * interval '1 millisecond'`;
    await this.run(`DELETE FROM ${this.t.events} WHERE created_at < ${older}`, [lifetimeMs]);
    await this.run(`DELETE FROM ${this.t.calls} WHERE updated_at < ${older}`, [lifetimeMs]);
    await this.run(`DELETE FROM ${this.t.settings} WHERE expires_at < clock_timestamp()`, []);
    await this.run(`DELETE FROM ${this.t.instances} WHERE alive_until < ${older}`, [DEAD_ROWS_KEPT_MS]);
  }

  /** One statement, once the tables exist; a database that cannot answer is TaskStoreUnavailableError. */
  private async run(text: string, values: unknown[]) {
    try {
      await (this.ready ??= this.migrate().catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      }));
      return await this.pool.query(text, values);
    } catch (error) {
      throw translatePostgresError(error, this.bounds, "message bus");
    }
  }

  private async migrate(): Promise<void> {
    const { events, calls, settings, instances } = this.t;
    await pgTransaction(
      this.pool,
      "message bus",
      async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`roundtrip_session_schema/${this.schema}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${events} (
          id bigserial PRIMARY KEY, stream text NOT NULL, session text NOT NULL, gen integer NOT NULL, seq integer NOT NULL,
          body text NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp(), UNIQUE (stream, gen, seq))`);
        await client.query(`CREATE INDEX IF NOT EXISTS roundtrip_session_events_by_session ON ${events} (session, id)`);
        await client.query(`CREATE INDEX IF NOT EXISTS roundtrip_session_events_by_age ON ${events} (created_at)`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${calls} (
          stream text PRIMARY KEY, session text NOT NULL, owner text, gen integer NOT NULL, request jsonb NOT NULL, round jsonb NOT NULL,
          waiting jsonb NOT NULL, answers jsonb NOT NULL, finished boolean NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
        await client.query(`CREATE INDEX IF NOT EXISTS roundtrip_session_calls_by_age ON ${calls} (updated_at)`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${settings} (
          session text PRIMARY KEY, level text, subscriptions jsonb NOT NULL, expires_at timestamptz NOT NULL)`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${instances} (tag text PRIMARY KEY, alive_until timestamptz NOT NULL)`);
      },
      (message, fields) => this.logger.warn(message, fields),
    );
  }
}

const CALL_COLUMNS = "stream, session, owner, gen, request, round, waiting, answers, finished";

/** A value as a jsonb parameter (pg would send a JavaScript array as a PostgreSQL array). */
function json(value: unknown): string {
  return JSON.stringify(value);
}
