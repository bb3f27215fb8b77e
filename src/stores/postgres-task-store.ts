import type { PgPool as Pool, PgPoolClient as PoolClient, PgQueryResultRow as QueryResultRow } from "./pg-client";
import { loadDriver } from "./load-driver";
import { PostgresChangeFeed } from "./postgres-change-feed";
import { postgresMigrations } from "./postgres-schema";
import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { type BatchSelection, type ChangedRow, type RowAt, TASK_COLUMNS, TIME_COLUMNS, type TaskRow } from "./task-row";
import { ACTIVE, notExpired, selectionSql } from "./task-sql";
import { isConnectionError, translatePostgresError } from "./postgres-errors";
import { TaskStoreConfigError } from "./task-store-errors";
import { type NewTask, type RowChange, checkCreationKey, checkPrincipalCounts } from "./task-transitions";

export interface PostgresTaskStoreOptions extends TaskStoreOptions {
  /** A `postgres://` URL; or give `pool`. */
  readonly connectionString?: string;
  /** A pool the app owns (the store never ends it); or give `connectionString`. */
  readonly pool?: Pool;
  /** The schema holding the tables (created if missing); default "public". Lower-case letters, digits, _. */
  readonly schema?: string;
  /** Connections in the store's own pool (default 10; one of them listens for changes). */
  readonly poolSize?: number;
  /** How long to wait for a connection before failing with TaskStoreUnavailableError (default 5000 ms). */
  readonly connectTimeoutMs?: number;
  /** How often watchers poll while the LISTEN connection is down (default 250 ms). */
  readonly watchPollMs?: number;
  /**
   * For tests only: a clock (ms since the epoch) that replaces the database's in every query,
   * so a test can move time. Unset, every time is the database's `clock_timestamp()`.
   */
  readonly testClock?: () => number;
}

type Pg = typeof import("pg");
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

  private constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    options: PostgresTaskStoreOptions,
  ) {
    super(options);
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
    let pool = options.pool;
    if (!pool) {
      const pg = loadDriver<Pg>("pg", "PostgreSQL");
      pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.poolSize ?? 10,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
        application_name: "roundtrip-mcp",
      });
    }
    let store: PostgresTaskStore;
    try {
      store = new PostgresTaskStore(pool, options.pool === undefined, options);
    } catch (error) {
      if (options.pool === undefined) await pool.end();
      throw error;
    }
    // An idle connection's error is emitted on the pool; unhandled, it would end the process.
    if (store.ownsPool) pool.on("error", (error) => store.logger.warn("A pooled PostgreSQL connection failed", { error: error.message }));
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
      // Under the principal's lock, so two instances creating with one key make one task (the unique index backs it).
      if (task.creationKey !== null) {
        const holder = atRow((await client.query(this.sql.byCreationKey, [task.creationKey, this.clockParam()])).rows[0]);
        if (holder && checkCreationKey(holder.row, holder.now)) await client.query(this.sql.clearCreationKey, [task.creationKey]);
      }
      const counts =
        task.principal === null
          ? await client.query(this.sql.countAnonymous, [this.clockParam()])
          : await client.query(this.sql.count, [this.clockParam(), task.principal]);
      const { total, active, now_ms } = counts.rows[0] as { total: number; active: number; now_ms: number };
      checkPrincipalCounts({ total, active }, this.limits, task.principal);
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
    if (this.ownsPool && !this.pool.ended) await this.pool.end();
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
      (error: unknown) => this.logger.warn("The PostgreSQL task store could not read a changed task", { taskId, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private async resync(): Promise<void> {
    const ids = this.watchers.taskIds();
    if (ids.length === 0) return;
    const { rows } = await this.run(() => this.pool.query(this.sql.watched, [ids, this.clockParam()]));
    const found = new Map(rows.map((raw) => [raw.id as string, atRow(raw)!]));
    for (const id of ids) this.watchers.deliver(id, found.get(id));
  }

  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.run(async () => {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await work(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        broken = isConnectionError(error);
        if (!broken) await client.query("ROLLBACK").catch(() => (broken = true));
        throw error;
      } finally {
        client.release(broken);
      }
    });
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translatePostgresError(error);
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
    byCreationKey: `SELECT ${SELECT_ROW}, ${ms(clock("$2"))} AS now_ms FROM ${table} WHERE creation_key = $1`,
    clearCreationKey: `UPDATE ${table} SET creation_key = NULL WHERE creation_key = $1`,
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
