import type { Pool, PoolClient, QueryResultRow } from "pg";
import { loadDriver } from "./load-driver";
import { PostgresChangeFeed } from "./postgres-change-feed";
import { postgresMigrations } from "./postgres-schema";
import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { type BatchSelection, type ChangedRow, type RowAt, TASK_COLUMNS, TIME_COLUMNS, type TaskRow } from "./task-row";
import { ACTIVE, notExpired, selectionSql } from "./task-sql";
import { TaskStoreConfigError, TaskStoreError, TaskStoreUnavailableError } from "./task-store-errors";
import { type NewTask, type RowChange, checkPrincipalCounts } from "./task-transitions";

export interface PostgresTaskStoreOptions extends TaskStoreOptions {
  /** A `postgres://` URL; or give `pool`. */
  readonly connectionString?: string;
  /** A pool the app owns (the store never ends it); or give `connectionString`. */
  readonly pool?: Pool;
  /** The schema holding the tables (created if missing); default "public". Lower-case letters, digits, _. */
  readonly schema?: string;
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
  /** How often watchers poll while the LISTEN connection is down (default 250 ms). */
  readonly watchPollMs?: number;
  /**
   * For tests only: a clock (ms since the epoch) that replaces the database's in every query,
   * so a test can move time. Unset, every time is the database's `clock_timestamp()`.
   */
  readonly testClock?: () => number;
}

type Pg = typeof import("pg");
/** The bounds in force, for the messages that name them. */
interface Bounds {
  readonly connectTimeoutMs: number;
  readonly queryTimeoutMs: number;
  readonly poolSize: number;
}

/** The defaults of the time bounds (documented in docs/tasks.md). */
const POSTGRES_TIMEOUT_DEFAULTS = Object.freeze({
  connectTimeoutMs: 5000,
  statementTimeoutMs: 5000,
  queryTimeoutMs: 6000,
  idleInTransactionTimeoutMs: 10_000,
});
/** The options that only apply to a pool the store creates. */
const OWN_POOL_OPTIONS = ["poolSize", "connectTimeoutMs", "statementTimeoutMs", "queryTimeoutMs", "idleInTransactionTimeoutMs"] as const;
/** The largest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;
type Queryable = Pick<PoolClient, "query">;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,39}$/;
const JSON_COLUMNS: ReadonlySet<string> = new Set(["input", "progress", "result", "error", "input_requests", "input_responses", "input_keys"]);
const BIGINT_COLUMNS: ReadonlySet<string> = new Set(["ttl_ms", "poll_interval_ms"]);

/** Milliseconds since the epoch as a float8 (pg hands bigint and numeric back as strings). */
const ms = (expr: string): string => `round(extract(epoch FROM ${expr}) * 1000)::float8`;
/** The store's clock: the database's, unless parameter `param` carries a test clock. */
const clock = (param: string): string => `coalesce('epoch'::timestamptz + ${param}::float8 * interval '1 millisecond', clock_timestamp())`;
/** A column as a TaskRow field. */
const selected = (c: string): string => (TIME_COLUMNS.has(c as keyof TaskRow) ? `${ms(c)} AS ${c}` : JSON_COLUMNS.has(c) ? `${c}::text AS ${c}` : BIGINT_COLUMNS.has(c) ? `${c}::float8 AS ${c}` : c);
/** A TaskRow field in parameter `param` as a column value. */
const stored = (c: string, param: string): string =>
  TIME_COLUMNS.has(c as keyof TaskRow) ? `'epoch'::timestamptz + ${param}::bigint * interval '1 millisecond'` : JSON_COLUMNS.has(c) ? `${param}::json` : param;

const SELECT_ROW = TASK_COLUMNS.map(selected).join(", ");

/**
 * SQLSTATE classes and socket errors that mean the database cannot be used now (57014 is a
 * statement cancelled by statement_timeout, 25P03 a session ended by the idle-in-transaction timeout).
 */
const UNAVAILABLE_SQLSTATE = /^(08|28|53|57|58|3D000|25P03)/;
const UNAVAILABLE_ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const QUERY_TIMEOUT = "Query read timeout";
const CONNECT_TIMEOUT = "timeout exceeded when trying to connect";
/** A new connection that did not finish its handshake within connectionTimeoutMillis. */
const HANDSHAKE_TIMEOUT = "Connection terminated due to connection timeout";
const UNAVAILABLE_MESSAGE = new RegExp(
  `Connection terminated|${CONNECT_TIMEOUT}|${QUERY_TIMEOUT}|Client has encountered a connection error|Client was closed|not queryable|Cannot use a pool after calling end`,
);
/** A statement the server cancelled leaves its connection usable (a ROLLBACK ends the transaction). */
const CANCELLED = "57014";

function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) || (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message));
}

/** The connection cannot be trusted any more: the pool must discard it, never lend it again. */
function isBrokenConnection(error: unknown): boolean {
  return isConnectionError(error) && (error as { code?: unknown }).code !== CANCELLED;
}

/** See onConnect: the failure surfaces, and is logged, where the connection is used. */
const ignoreHere = (): void => undefined;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function translate(error: unknown, bounds: Bounds): unknown {
  if (error instanceof TaskStoreError || !isConnectionError(error)) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const what =
    message === QUERY_TIMEOUT
      ? `: no answer from the database within queryTimeoutMs (${bounds.queryTimeoutMs} ms), so the connection was dropped; the database is frozen, overloaded or unreachable`
      : message === CONNECT_TIMEOUT || message === HANDSHAKE_TIMEOUT
        ? `: no connection within connectTimeoutMs (${bounds.connectTimeoutMs} ms); the database is unreachable or all ${bounds.poolSize} pooled connections are busy`
        : typeof code === "string"
          ? ` (${code})${typeof message === "string" && message ? `: ${message}` : ""}`
          : typeof message === "string" && message
            ? `: ${message}`
            : "";
  return new TaskStoreUnavailableError(`The PostgreSQL task store is unavailable${what}`, { cause: error });
}

/** A positive whole number of milliseconds a timer can hold, or the default. */
function millis(options: PostgresTaskStoreOptions, name: keyof typeof POSTGRES_TIMEOUT_DEFAULTS): number {
  const value = options[name] ?? POSTGRES_TIMEOUT_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_TIMER_MS) {
    throw new TaskStoreConfigError(`The PostgreSQL task store's ${name} must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${String(value)}`);
  }
  return value;
}

/**
 * Tasks in PostgreSQL, shared by every instance of the app: rows are locked while they change
 * (`SELECT … FOR UPDATE`; `FOR UPDATE SKIP LOCKED` for claimNext and the batches), every time
 * is the database's clock, creates per principal are serialized by an advisory lock so limits
 * hold across instances, and every change is announced by NOTIFY in its own transaction.
 */
export class PostgresTaskStore extends RowTaskStore {
  readonly kind = "postgres";
  readonly schema: string;
  /** The NOTIFY channel changes are announced on. */
  readonly channel: string;
  private readonly feed: PostgresChangeFeed;
  private readonly sql: ReturnType<typeof statements>;
  private readonly testClock?: () => number;
  private readonly bounds: Bounds;
  /** The connections of the store's own pool until the pool has removed them (for a bounded close()). */
  private readonly connections = new Set<PoolClient>();
  /**
   * Every new connection gets a listener for its whole life. The pool drops its own the moment it
   * hands a connection out, and an error parsed from the same packet as the connection's
   * readiness is emitted before `await pool.connect()` resumes and the store attaches its own:
   * with no listener at all, that ends the process. The error also fails the connection's next
   * query, which is where it is handled.
   */
  private readonly onConnect = (client: PoolClient) => {
    if (this.ownsPool) this.connections.add(client);
    client.on("error", ignoreHere);
  };
  /** Logs an idle pooled connection's failure, which the pool emits and which would otherwise end the process. */
  private readonly onPoolError = (error: Error) => this.warn("A pooled PostgreSQL connection of the task store failed; the pool replaces it", { error: messageOf(error) });

  private constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    options: PostgresTaskStoreOptions,
    bounds: Bounds,
  ) {
    super(options);
    this.bounds = bounds;
    this.schema = options.schema ?? "public";
    this.channel = this.schema === "public" ? "roundtrip_tasks" : `roundtrip_tasks_${this.schema}`;
    this.testClock = options.testClock;
    this.sql = statements(`${this.schema}.roundtrip_tasks`);
    this.feed = new PostgresChangeFeed(
      pool,
      this.channel,
      { notice: (id, revision) => this.notice(id, revision), resync: () => this.resync() },
      this.logger,
      options.watchPollMs ?? 250,
      // A heartbeat as patient as any query: a silent LISTEN connection is found within twice that.
      bounds.queryTimeoutMs || POSTGRES_TIMEOUT_DEFAULTS.queryTimeoutMs,
    );
  }

  /** The schema version this code writes. */
  static readonly SCHEMA_VERSION = postgresMigrations("s").length;

  /** Connects, then creates or migrates the schema (idempotent, safe when several instances open at once). */
  static async open(options: PostgresTaskStoreOptions): Promise<PostgresTaskStore> {
    const schema = options.schema ?? "public";
    if (!SCHEMA_NAME.test(schema)) throw new TaskStoreConfigError(`The PostgreSQL schema name must match ${SCHEMA_NAME.source}`);
    if ((options.pool === undefined) === (options.connectionString === undefined)) {
      throw new TaskStoreConfigError("The PostgreSQL task store needs exactly one of connectionString and pool");
    }
    const poolSize = options.poolSize ?? 10;
    if (!Number.isSafeInteger(poolSize) || poolSize < 1) throw new TaskStoreConfigError(`The PostgreSQL task store's poolSize must be a positive integer, got ${String(poolSize)}`);
    const connectTimeoutMs = millis(options, "connectTimeoutMs");
    const statementTimeoutMs = millis(options, "statementTimeoutMs");
    const queryTimeoutMs = millis(options, "queryTimeoutMs");
    const idleInTransactionTimeoutMs = millis(options, "idleInTransactionTimeoutMs");
    let pool = options.pool;
    if (pool) {
      const mine = OWN_POOL_OPTIONS.filter((name) => options[name] !== undefined);
      if (mine.length > 0) {
        throw new TaskStoreConfigError(
          `The PostgreSQL task store's ${mine.join(", ")} only apply to the pool it creates from connectionString; with your own pool, set max, connectionTimeoutMillis, statement_timeout, query_timeout and idle_in_transaction_session_timeout on it`,
        );
      }
    } else {
      const pg = loadDriver<Pg>("pg", "PostgreSQL");
      pool = new pg.Pool({
        connectionString: options.connectionString,
        max: poolSize,
        connectionTimeoutMillis: connectTimeoutMs,
        statement_timeout: statementTimeoutMs,
        query_timeout: queryTimeoutMs,
        idle_in_transaction_session_timeout: idleInTransactionTimeoutMs,
        application_name: "roundtrip-mcp",
      });
    }
    const ownsPool = options.pool === undefined;
    const bounds: Bounds = ownsPool
      ? { connectTimeoutMs, queryTimeoutMs, poolSize }
      : { connectTimeoutMs: Number(pool.options.connectionTimeoutMillis ?? 0), queryTimeoutMs: Number((pool.options as { query_timeout?: number }).query_timeout ?? 0), poolSize: pool.options.max ?? 10 };
    let store: PostgresTaskStore;
    try {
      store = new PostgresTaskStore(pool, ownsPool, options, bounds);
    } catch (error) {
      if (ownsPool) await pool.end();
      throw error;
    }
    // An idle connection's error is emitted on the pool; unhandled, it would end the process.
    pool.on("error", store.onPoolError);
    pool.on("connect", store.onConnect);
    if (ownsPool) pool.on("remove", (client) => store.connections.delete(client));
    try {
      await store.transaction((client) => store.migrate(client));
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  protected async readRow(taskId: string): Promise<RowAt | undefined> {
    return this.run(async () => atRow((await this.pool.query(this.sql.read, [taskId, this.clockParam()])).rows[0]));
  }

  protected async changeRow(taskId: string, change: RowChange): Promise<ChangedRow | undefined> {
    return this.transaction(async (client) => {
      const read = atRow((await client.query(this.sql.lock, [taskId, this.clockParam()])).rows[0]);
      if (!read) return undefined;
      const next = change(read.row, read.now);
      if (next) await this.write(client, read.row, next);
      return { row: next ?? read.row, now: read.now, changed: next !== undefined };
    });
  }

  protected async insertRow(task: NewTask): Promise<TaskRow> {
    return this.transaction(async (client) => {
      const scope = task.principal === null ? "anonymous" : `principal:${task.principal}`;
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`${this.channel}/${scope}`]);
      const counts =
        task.principal === null
          ? await client.query(this.sql.countAnonymous, [this.clockParam()])
          : await client.query(this.sql.count, [this.clockParam(), task.principal]);
      const { total, active, now_ms } = counts.rows[0] as { total: number; active: number; now_ms: number };
      checkPrincipalCounts({ total, active }, this.limits);
      const row = task.build(now_ms);
      await client.query(this.sql.insert, TASK_COLUMNS.map((c) => row[c]));
      return row;
    });
  }

  protected async changeBatch(selection: BatchSelection, limit: number, change: RowChange): Promise<RowAt[]> {
    return this.transaction(async (client) => {
      const changed: RowAt[] = [];
      for (const raw of (await client.query(this.sql[selection], [limit, this.clockParam()])).rows) {
        const read = atRow(raw)!;
        const next = change(read.row, read.now);
        if (!next) continue;
        await this.write(client, read.row, next);
        changed.push({ row: next, now: read.now });
      }
      return changed;
    });
  }

  protected async deleteExpired(limit: number): Promise<number> {
    const { rows } = await this.run(() => this.pool.query(this.sql.reap, [limit, this.clockParam(), this.channel]));
    for (const { id } of rows as { id: string }[]) this.watchers.deliver(id, undefined);
    return rows.length;
  }

  protected async startChangeFeed(): Promise<void> {
    await this.run(() => this.feed.start());
  }

  protected stopChangeFeed(): void {
    // The LISTEN connection stays until close(): tasks come and go, and re-listening costs a round trip each time.
  }

  protected async closeStore(): Promise<void> {
    this.feed.stop();
    if (!this.ownsPool) {
      this.pool.off("error", this.onPoolError);
      this.pool.off("connect", this.onConnect);
      return;
    }
    if (this.pool.ended || this.pool.ending) return;
    await this.pool.end();
    // The pool is done once its connections are handed back; each then says goodbye. A frozen
    // server never answers it, so wait at most queryTimeoutMs, then drop the rest.
    let timer: NodeJS.Timeout | undefined;
    const gone = new Promise<void>((resolve) => {
      const check = () => this.connections.size === 0 && resolve();
      this.pool.on("remove", check);
      check();
    });
    const closed = await Promise.race([gone.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.bounds.queryTimeoutMs)))]);
    clearTimeout(timer);
    if (!closed) {
      this.warn("The PostgreSQL task store's connections did not close in time; dropping them", { waitedMs: this.bounds.queryTimeoutMs, connections: this.connections.size });
      // pg has no public way to drop a connection whose goodbye is never answered: end its socket.
      for (const client of this.connections) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      this.connections.clear();
    }
  }

  private async migrate(client: Queryable): Promise<void> {
    const s = this.schema;
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`roundtrip_tasks_schema/${s}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.roundtrip_schema_version (version integer NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const current = (await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${s}.roundtrip_schema_version`)).rows[0].v as number;
    const migrations = postgresMigrations(s);
    if (current > migrations.length) {
      throw new TaskStoreConfigError(`The PostgreSQL task store's schema ${s} is version ${current}, newer than this roundtrip-mcp knows (${migrations.length}); upgrade roundtrip-mcp`);
    }
    for (let version = current + 1; version <= migrations.length; version++) {
      await client.query(migrations[version - 1]);
      await client.query(`INSERT INTO ${s}.roundtrip_schema_version (version) VALUES ($1)`, [version]);
    }
  }

  /** Writes `next` over `previous`; a visible change is announced when the transaction commits. */
  private async write(client: Queryable, previous: TaskRow, next: TaskRow): Promise<void> {
    const values = TASK_COLUMNS.map((c) => next[c]);
    if (next.revision === previous.revision) await client.query(this.sql.update, values);
    else await client.query(this.sql.updateAndNotify, [...values, this.channel]);
  }

  /** The value of the clock parameter: null (the database's clock) outside tests. */
  private clockParam(): number | null {
    return this.testClock ? this.testClock() : null;
  }

  private notice(taskId: string, revision: number | undefined): void {
    if (revision === undefined) return this.watchers.deliver(taskId, undefined);
    if (!this.watchers.wants(taskId, revision)) return;
    this.readRow(taskId).then(
      (read) => this.watchers.deliver(taskId, read),
      (error: unknown) => this.warn("The PostgreSQL task store could not read a changed task", { taskId, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private async resync(): Promise<void> {
    const ids = this.watchers.taskIds();
    if (ids.length === 0) return;
    const { rows } = await this.run(() => this.pool.query(this.sql.watched, [ids, this.clockParam()]));
    const found = new Map(rows.map((raw) => [raw.id as string, atRow(raw)!]));
    for (const id of ids) this.watchers.deliver(id, found.get(id));
  }

  /**
   * Runs `work` in a transaction on a pooled connection. While the store holds the connection
   * the pool listens to it no more, so the store does: a fatal error between two queries (the
   * server shutting down, pg_terminate_backend, right after COMMIT) is logged, never thrown out
   * of an event. A connection that failed or timed out goes back with `release(error)`, so the
   * pool discards it and opens a fresh one when the database returns.
   */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.run(async () => {
      const client = await this.pool.connect();
      let failure: Error | undefined;
      const onError = (error: Error) => {
        if (failure === undefined) this.warn("A PostgreSQL connection of the task store failed while in use", { error: messageOf(error) });
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
    });
  }

  /** Logs from inside an event: a logger that throws must not become an uncaught exception. */
  private warn(message: string, fields: Record<string, unknown>): void {
    try {
      this.logger.warn(message, fields);
    } catch {
      // Nothing better to do with a broken logger inside an event.
    }
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translate(error, this.bounds);
    }
  }
}

/** A selected row and the clock read with it. */
function atRow(raw: QueryResultRow | undefined): RowAt | undefined {
  if (!raw) return undefined;
  const { now_ms, ...row } = raw;
  return { row: row as TaskRow, now: now_ms as number };
}

function statements(table: string) {
  const params = TASK_COLUMNS.map((c, i) => stored(c, `$${i + 1}`));
  const update = `UPDATE ${table} SET ${TASK_COLUMNS.map((c, i) => `${c} = ${params[i]}`)
    .slice(1)
    .join(", ")} WHERE id = $1`;
  const batch = (selection: BatchSelection) =>
    `WITH c AS (SELECT ${clock("$2")} AS now) SELECT ${SELECT_ROW}, ${ms("c.now")} AS now_ms FROM ${table} t, c WHERE ${selectionSql(selection, "c.now", "t")} LIMIT $1 FOR UPDATE OF t SKIP LOCKED`;
  const count = (principal: string, now: string) =>
    `WITH c AS (SELECT ${clock(now)} AS now) SELECT count(t.id)::int AS total, (count(t.id) FILTER (WHERE t.${ACTIVE}))::int AS active, ${ms("c.now")} AS now_ms ` +
    `FROM c LEFT JOIN ${table} t ON ${principal} AND ${notExpired("c.now", "t.expires_at")} GROUP BY c.now`;
  return {
    read: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = $1`,
    lock: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = $1 FOR UPDATE`,
    watched: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE id = ANY($1::text[])`,
    insert: `INSERT INTO ${table} (${TASK_COLUMNS.join(", ")}) VALUES (${params.join(", ")})`,
    update,
    updateAndNotify: `WITH u AS (${update} RETURNING id, revision) SELECT pg_notify($${TASK_COLUMNS.length + 1}, u.id || ' ' || u.revision) FROM u`,
    count: count("t.principal = $2", "$1"),
    countAnonymous: count("t.principal IS NULL", "$1"),
    claimable: batch("claimable"),
    abandoned: batch("abandoned"),
    reap:
      `WITH c AS (SELECT ${clock("$2")} AS now), d AS (DELETE FROM ${table} WHERE id = ANY(ARRAY(` +
      `SELECT x.id FROM ${table} x, c WHERE x.expires_at <= c.now ORDER BY x.expires_at LIMIT $1 FOR UPDATE OF x SKIP LOCKED)) RETURNING id) ` +
      `SELECT d.id, pg_notify($3, d.id || ' gone') FROM d`,
  };
}
