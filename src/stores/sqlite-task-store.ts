import { mkdirSync } from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadDriver, sqliteBindingError } from "./load-driver";
import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { SQLITE_MIGRATIONS } from "./sqlite-schema";
import { type BatchSelection, type ChangedRow, type RowAt, TASK_COLUMNS, type TaskRow } from "./task-row";
import { ACTIVE, notExpired, selectionSql } from "./task-sql";
import { TaskStoreConfigError, TaskStoreUnavailableError } from "./task-store-errors";
import { type NewTask, type RowChange, checkCreationKey, checkPrincipalCounts } from "./task-transitions";

export interface SqliteTaskStoreOptions extends TaskStoreOptions {
  /** The database file; its folder is created (mode 0700) if missing. */
  readonly file: string;
  /** The clock in milliseconds since the epoch (default `Date.now`); inject it in tests. */
  readonly clock?: () => number;
  /** How long a write waits for another process's transaction before failing (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /** How often watchers look for other processes' changes (default 100 ms). */
  readonly watchPollMs?: number;
}

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** SQLite result codes that mean the store cannot be used now, not a bug in a query. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|PERM|AUTH)/;

function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNAVAILABLE.test(code) ? new TaskStoreUnavailableError(`The SQLite task store is unavailable (${code})`, { cause: error }) : error;
}

/**
 * The default store: one SQLite file, zero setup, durable across restarts and shared safely
 * by several processes on one machine (WAL mode; every write an IMMEDIATE transaction, so
 * writers queue instead of failing mid-way). Other processes' changes reach watchers by polling
 * SQLite's change counter (`PRAGMA data_version`), a read of shared memory, every 100 ms.
 */
export class SqliteTaskStore extends RowTaskStore {
  readonly kind = "sqlite";
  readonly file: string;
  private readonly db: Database;
  private readonly clock: () => number;
  private readonly watchPollMs: number;
  private readonly statements: ReturnType<typeof prepare>;
  private readonly immediate: <T>(work: () => T) => T;
  private poller?: NodeJS.Timeout;
  private dataVersion = 0;

  constructor(options: SqliteTaskStoreOptions) {
    super(options);
    if (typeof options.file !== "string" || options.file.length === 0) throw new TaskStoreConfigError("The SQLite task store needs a file");
    this.file = options.file;
    this.clock = options.clock ?? Date.now;
    this.watchPollMs = options.watchPollMs ?? 100;
    const Driver = loadDriver<typeof BetterSqlite3>("better-sqlite3", "SQLite");
    try {
      if (this.file !== ":memory:") mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true, mode: 0o700 });
      this.db = new Driver(this.file, { timeout: options.busyTimeoutMs ?? 5000 });
    } catch (error) {
      throw sqliteBindingError(error) ?? translate(error);
    }
    try {
      this.db.pragma("journal_mode = WAL");
      // NORMAL in WAL mode survives a killed process; only a power loss can drop the last commits.
      this.db.pragma("synchronous = NORMAL");
      const transaction = this.db.transaction((work: () => unknown) => work());
      this.immediate = <T>(work: () => T) => transaction.immediate(work) as T;
      this.immediate(() => migrate(this.db, this.clock()));
      this.statements = prepare(this.db);
    } catch (error) {
      this.db.close();
      throw translate(error);
    }
  }

  /** The schema version this code writes. */
  static readonly SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

  protected async readRow(taskId: string): Promise<RowAt | undefined> {
    return this.run(() => {
      const row = this.statements.read.get(taskId) as TaskRow | undefined;
      return row && { row, now: this.clock() };
    });
  }

  protected async changeRow(taskId: string, change: RowChange): Promise<ChangedRow | undefined> {
    return this.run(() =>
      this.immediate(() => {
        const now = this.clock();
        const row = this.statements.read.get(taskId) as TaskRow | undefined;
        if (!row) return undefined;
        const next = change(row, now);
        if (next) this.statements.update.run(next);
        return { row: next ?? row, now, changed: next !== undefined };
      }),
    );
  }

  protected async insertRow(task: NewTask): Promise<TaskRow> {
    return this.run(() =>
      this.immediate(() => {
        const now = this.clock();
        if (task.creationKey !== null && checkCreationKey(this.statements.byCreationKey.get(task.creationKey) as TaskRow | undefined, now)) {
          this.statements.clearCreationKey.run(task.creationKey);
        }
        const counts = this.statements.count.get({ principal: task.principal, now }) as { total: number; active: number | null };
        checkPrincipalCounts({ total: counts.total, active: counts.active ?? 0 }, this.limits, task.principal);
        const row = task.build(now);
        this.statements.insert.run(row);
        return row;
      }),
    );
  }

  protected async changeBatch(selection: BatchSelection, limit: number, change: RowChange): Promise<RowAt[]> {
    return this.run(() =>
      this.immediate(() => {
        const now = this.clock();
        const changed: RowAt[] = [];
        for (const row of this.statements[selection].all({ now, limit }) as TaskRow[]) {
          const next = change(row, now);
          if (!next) continue;
          this.statements.update.run(next);
          changed.push({ row: next, now });
        }
        return changed;
      }),
    );
  }

  protected async deleteExpired(limit: number): Promise<number> {
    const ids = this.run(() => (this.statements.reap.all({ now: this.clock(), limit }) as { id: string }[]).map((r) => r.id));
    for (const id of ids) this.watchers.deliver(id, undefined);
    return ids.length;
  }

  protected async startChangeFeed(): Promise<void> {
    if (this.poller) return;
    this.dataVersion = this.readDataVersion();
    this.poller = setInterval(() => this.poll(), this.watchPollMs);
    this.poller.unref();
  }

  protected stopChangeFeed(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }

  protected async closeStore(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private readDataVersion(): number {
    return this.db.pragma("data_version", { simple: true }) as number;
  }

  /** Another connection committed since the last look: re-read the watched tasks. */
  private poll(): void {
    try {
      const version = this.readDataVersion();
      if (version === this.dataVersion) return;
      this.dataVersion = version;
      const ids = this.watchers.taskIds();
      const now = this.clock();
      const rows = new Map((this.statements.watched.all(JSON.stringify(ids)) as TaskRow[]).map((row) => [row.id, row]));
      for (const id of ids) {
        const row = rows.get(id);
        this.watchers.deliver(id, row && { row, now });
      }
    } catch (error) {
      this.logger.warn("The SQLite task store could not look for changes", { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private run<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw translate(error);
    }
  }
}

function migrate(db: Database, now: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS roundtrip_schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const current = (db.prepare("SELECT coalesce(max(version), 0) AS v FROM roundtrip_schema_version").get() as { v: number }).v;
  if (current > SQLITE_MIGRATIONS.length) {
    throw new TaskStoreConfigError(`The SQLite task store's schema is version ${current}, newer than this roundtrip-mcp knows (${SQLITE_MIGRATIONS.length}); upgrade roundtrip-mcp`);
  }
  const record = db.prepare("INSERT INTO roundtrip_schema_version (version, applied_at) VALUES (?, ?)");
  for (let version = current + 1; version <= SQLITE_MIGRATIONS.length; version++) {
    db.exec(SQLITE_MIGRATIONS[version - 1]);
    record.run(version, now);
  }
}

/** The store's SQL, by statement (exported for the query-plan test). */
export const SQLITE_QUERIES = (() => {
  const selectBatch = (selection: BatchSelection) => `SELECT * FROM roundtrip_tasks WHERE ${selectionSql(selection, "@now", "roundtrip_tasks")} LIMIT @limit`;
  return {
    read: "SELECT * FROM roundtrip_tasks WHERE id = ?",
    insert: `INSERT INTO roundtrip_tasks (${TASK_COLUMNS.join(", ")}) VALUES (${TASK_COLUMNS.map((c) => `@${c}`).join(", ")})`,
    update: `UPDATE roundtrip_tasks SET ${TASK_COLUMNS.filter((c) => c !== "id")
      .map((c) => `${c} = @${c}`)
      .join(", ")} WHERE id = @id`,
    count: `SELECT count(*) AS total, sum(${ACTIVE}) AS active FROM roundtrip_tasks WHERE principal IS @principal AND ${notExpired("@now")}`,
    claimable: selectBatch("claimable"),
    abandoned: selectBatch("abandoned"),
    reap: "DELETE FROM roundtrip_tasks WHERE id IN (SELECT id FROM roundtrip_tasks WHERE expires_at <= @now ORDER BY expires_at LIMIT @limit) RETURNING id",
    watched: "SELECT * FROM roundtrip_tasks WHERE id IN (SELECT value FROM json_each(?))",
    byCreationKey: "SELECT * FROM roundtrip_tasks WHERE creation_key = ?",
    clearCreationKey: "UPDATE roundtrip_tasks SET creation_key = NULL WHERE creation_key = ?",
  };
})();

function prepare(db: Database): Record<keyof typeof SQLITE_QUERIES, Statement> {
  return Object.fromEntries(Object.entries(SQLITE_QUERIES).map(([name, sql]) => [name, db.prepare(sql)])) as Record<keyof typeof SQLITE_QUERIES, Statement>;
}
