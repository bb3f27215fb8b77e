import type { PgPool as Pool, PgPoolClient as PoolClient } from "./pg-client";
import { PostgresChangeFeed } from "./postgres-change-feed";
import { warnSafely } from "./postgres-listener";
import { type PostgresBounds, translatePostgresError } from "./postgres-errors";
import { POSTGRES_TIMEOUT_DEFAULTS, PoolGuard, type PostgresPoolOptions, pgTransaction, postgresPool } from "./postgres-pool";
import { postgresMigrations } from "./postgres-schema";
import { atRow, postgresStatements } from "./postgres-statements";
import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { type BatchSelection, type ChangedRow, type RowAt, TASK_COLUMNS, type TaskRow } from "./task-row";
import { TaskStoreConfigError } from "./task-store-errors";
import { type NewTask, type RowChange, checkCreationKey, checkPrincipalCounts } from "./task-transitions";

export interface PostgresTaskStoreOptions extends TaskStoreOptions, PostgresPoolOptions {
  /** The schema holding the tables (created if missing); default "public". Lower-case letters, digits, _. */
  readonly schema?: string;
  /** How often watchers poll while the LISTEN connection is down (default 250 ms). */
  readonly watchPollMs?: number;
  /**
   * For tests only: a clock (ms since the epoch) that replaces the database's in every query,
   * so a test can move time. Unset, every time is the database's `clock_timestamp()`.
   */
  readonly testClock?: () => number;
}

type Queryable = Pick<PoolClient, "query">;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,39}$/;

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
  private readonly sql: ReturnType<typeof postgresStatements>;
  private readonly testClock?: () => number;
  private readonly bounds: PostgresBounds;
  private readonly guard: PoolGuard;

  private constructor(
    private readonly pool: Pool,
    ownsPool: boolean,
    options: PostgresTaskStoreOptions,
    bounds: PostgresBounds,
  ) {
    super(options);
    this.bounds = bounds;
    // Before any connection opens: see PoolGuard.
    this.guard = new PoolGuard(pool, ownsPool, "task store", (message, fields) => this.warn(message, fields));
    this.schema = options.schema ?? "public";
    this.channel = this.schema === "public" ? "roundtrip_tasks" : `roundtrip_tasks_${this.schema}`;
    this.testClock = options.testClock;
    this.sql = postgresStatements(`${this.schema}.roundtrip_tasks`);
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
    const { pool, ownsPool, bounds } = postgresPool(options);
    let store: PostgresTaskStore;
    try {
      store = new PostgresTaskStore(pool, ownsPool, options, bounds);
    } catch (error) {
      if (ownsPool) await pool.end();
      throw error;
    }
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
      await client.query(
        this.sql.insert,
        TASK_COLUMNS.map((c) => row[c]),
      );
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
    await this.guard.close(this.bounds.queryTimeoutMs);
  }

  private async migrate(client: Queryable): Promise<void> {
    const s = this.schema;
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`roundtrip_tasks_schema/${s}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.roundtrip_schema_version (version integer NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const current = (await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${s}.roundtrip_schema_version`)).rows[0].v as number;
    const migrations = postgresMigrations(s);
    if (current > migrations.length) {
      throw new TaskStoreConfigError(
        `The PostgreSQL task store's schema ${s} is version ${current}, newer than this roundtrip-mcp knows (${migrations.length}); upgrade roundtrip-mcp`,
      );
    }
    for (const [index, migration] of migrations.slice(current).entries()) {
      const version = current + 1 + index;
      await client.query(migration);
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
      (error: unknown) =>
        this.warn("The PostgreSQL task store could not read a changed task", {
          taskId,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  }

  private async resync(): Promise<void> {
    const ids = this.watchers.taskIds();
    if (ids.length === 0) return;
    const { rows } = await this.run(() => this.pool.query(this.sql.watched, [ids, this.clockParam()]));
    const found = new Map(rows.map((raw) => [raw.id as string, atRow(raw)!]));
    for (const id of ids) this.watchers.deliver(id, found.get(id));
  }

  /** Runs `work` in a transaction on a pooled connection (see pgTransaction). */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.run(() => pgTransaction(this.pool, "task store", work, (message, fields) => this.warn(message, fields)));
  }

  /** Logs from inside an event: a logger that throws must not become an uncaught exception. */
  private warn(message: string, fields: Record<string, unknown>): void {
    warnSafely(this.logger, message, fields);
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw translatePostgresError(error, this.bounds);
    }
  }
}
