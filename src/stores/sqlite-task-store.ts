import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { loadDriver, sqliteBindingError } from "./load-driver";
import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { LOCK_PROBE_MS, SqliteLane, isLockError } from "./sqlite-lane";
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
  /**
   * How long an operation waits for a lock another connection holds before it fails with
   * TaskStoreUnavailableError (default 5000 ms; 0 fails at once). The wait never holds the event
   * loop: each try blocks at most 2 ms, and a locked operation is tried again on a timer.
   */
  readonly busyTimeoutMs?: number;
  /** How often watchers look for other processes' changes (default 100 ms). */
  readonly watchPollMs?: number;
}

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;
type Statements = ReturnType<typeof prepare>;

/** SQLite result codes that mean the store cannot be used now, not a bug in a query. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL|PERM|AUTH)/;

/** What opening the file may meet in the file system (access(2)). */
const FILE_DENIED = /^(EACCES|EPERM|EROFS)$/;

/** The driver's error as the store's: what is wrong with the file and the fix, the driver's error as the cause. */
function translate(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !(UNAVAILABLE.test(code) || FILE_DENIED.test(code))) return error;
  const fault = code.startsWith("SQLITE_FULL")
    ? "its disk is full; free space on that file system"
    : code.startsWith("SQLITE_READONLY") || FILE_DENIED.test(code)
      ? "the file, its folder or its file system is read-only for this process; make them writable"
      : code.startsWith("SQLITE_IOERR")
        ? "the disk reported an I/O error; check the disk and that the file system is mounted read-write"
        : code.startsWith("SQLITE_CANTOPEN")
          ? "it (or its -wal or -shm file) cannot be opened; check that its folder exists, is writable by this process and is on a local, writable file system"
          : undefined;
  const message = fault
    ? `The SQLite task store cannot use ${file} (${code}): ${fault}. Nothing was written.`
    : `The SQLite task store is unavailable (${code})`;
  return new TaskStoreUnavailableError(message, { cause: error });
}

function checkWait(value: number | undefined): number {
  if (value === undefined) return 5000;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TaskStoreConfigError(`busyTimeoutMs must be a number of milliseconds, 0 or more, got ${String(value)}`);
  }
  return value;
}

/**
 * The default store: one SQLite file, zero setup, durable across restarts and shared safely
 * by several processes on one machine (WAL mode; every write an IMMEDIATE transaction, so
 * writers queue instead of failing mid-way). Other processes' changes reach watchers by polling
 * SQLite's change counter (`PRAGMA data_version`), a read of shared memory, every 100 ms.
 *
 * better-sqlite3 is synchronous, so a lock another process holds is never waited for inside
 * SQLite (that would stop the event loop): reads and writes each go through a lane (sqlite-lane.ts)
 * that tries for 2 ms and then again on a timer, up to `busyTimeoutMs`. Reads need no write lock
 * in WAL mode, so they do not queue behind a locked write.
 */
export class SqliteTaskStore extends RowTaskStore {
  readonly kind = "sqlite";
  readonly file: string;
  private readonly db: Database;
  private readonly clock: () => number;
  private readonly watchPollMs: number;
  private readonly busyTimeoutMs: number;
  private readonly reads: SqliteLane;
  private readonly writes: SqliteLane;
  private readonly immediate: <T>(work: () => T) => T;
  /** Undefined until the schema is in place: opening found the file locked and is finished by the first operation. */
  private statements?: Statements;
  private opening?: Promise<Statements>;
  private poller?: NodeJS.Timeout;
  private polling = false;
  private dataVersion = 0;

  constructor(options: SqliteTaskStoreOptions) {
    super(options);
    if (typeof options.file !== "string" || options.file.length === 0) throw new TaskStoreConfigError("The SQLite task store needs a file");
    this.file = options.file;
    this.clock = options.clock ?? Date.now;
    this.watchPollMs = options.watchPollMs ?? 100;
    this.busyTimeoutMs = checkWait(options.busyTimeoutMs);
    const timedOut = (lockError: unknown, waitedMs: number) =>
      new TaskStoreUnavailableError(
        `The SQLite task store's file ${this.file} stayed locked by another connection (${String((lockError as { code?: unknown }).code)}) for ${Math.round(waitedMs)} ms, ` +
          `longer than busyTimeoutMs (${this.busyTimeoutMs} ms), so the operation was not applied; retry it, or end the transaction that holds the lock (another process or script on the file)`,
        { cause: lockError },
      );
    this.reads = new SqliteLane(this.busyTimeoutMs, timedOut);
    this.writes = new SqliteLane(this.busyTimeoutMs, timedOut);
    const Driver = loadDriver<typeof BetterSqlite3>("better-sqlite3", "SQLite");
    try {
      if (this.file !== ":memory:") {
        mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true, mode: 0o700 });
        // SQLite would open a file it cannot write read-only, for good: refused here, the next open (once fixed) succeeds.
        if (existsSync(this.file)) accessSync(this.file, constants.R_OK | constants.W_OK);
      }
      this.db = new Driver(this.file, { timeout: LOCK_PROBE_MS });
    } catch (error) {
      throw sqliteBindingError(error) ?? translate(error, this.file);
    }
    const transaction = this.db.transaction((work: () => unknown) => work());
    this.immediate = <T>(work: () => T) => transaction.immediate(work) as T;
    try {
      this.statements = this.open();
    } catch (error) {
      // Another process holds the file (it may be migrating it): the first operation finishes opening, waiting on the lane.
      if (!isLockError(error)) {
        this.db.close();
        throw translate(error, this.file);
      }
    }
  }

  /** The schema version this code writes. */
  static readonly SCHEMA_VERSION = SQLITE_MIGRATIONS.length;

  protected async readRow(taskId: string): Promise<RowAt | undefined> {
    const statements = this.statements ?? (await this.opened());
    return this.read(() => {
      const row = statements.read.get(taskId) as TaskRow | undefined;
      return row && { row, now: this.clock() };
    });
  }

  protected async changeRow(taskId: string, change: RowChange): Promise<ChangedRow | undefined> {
    const statements = this.statements ?? (await this.opened());
    return this.write(() => {
      const now = this.clock();
      const row = statements.read.get(taskId) as TaskRow | undefined;
      if (!row) return undefined;
      const next = change(row, now);
      if (next) statements.update.run(next);
      return { row: next ?? row, now, changed: next !== undefined };
    });
  }

  protected async insertRow(task: NewTask): Promise<TaskRow> {
    const statements = this.statements ?? (await this.opened());
    return this.write(() => {
      const now = this.clock();
      if (task.creationKey !== null && checkCreationKey(statements.byCreationKey.get(task.creationKey) as TaskRow | undefined, now)) {
        statements.clearCreationKey.run(task.creationKey);
      }
      const counts = statements.count.get({ principal: task.principal, now }) as { total: number; active: number | null };
      checkPrincipalCounts({ total: counts.total, active: counts.active ?? 0 }, this.limits, task.principal);
      const row = task.build(now);
      statements.insert.run(row);
      return row;
    });
  }

  protected async changeBatch(selection: BatchSelection, limit: number, change: RowChange): Promise<RowAt[]> {
    const statements = this.statements ?? (await this.opened());
    return this.write(() => {
      const now = this.clock();
      const changed: RowAt[] = [];
      for (const row of statements[selection].all({ now, limit }) as TaskRow[]) {
        const next = change(row, now);
        if (!next) continue;
        statements.update.run(next);
        changed.push({ row: next, now });
      }
      return changed;
    });
  }

  protected async deleteExpired(limit: number): Promise<number> {
    const statements = this.statements ?? (await this.opened());
    const ids = await this.write(() => (statements.reap.all({ now: this.clock(), limit }) as { id: string }[]).map((r) => r.id), false);
    for (const id of ids) this.watchers.deliver(id, undefined);
    return ids.length;
  }

  protected async startChangeFeed(): Promise<void> {
    if (this.poller) return;
    if (!this.statements) await this.opened();
    const version = await this.read(() => this.readDataVersion());
    if (this.poller) return;
    this.dataVersion = version;
    this.poller = setInterval(() => this.poll(), this.watchPollMs);
    this.poller.unref();
  }

  protected stopChangeFeed(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }

  protected async closeStore(): Promise<void> {
    const closed = new TaskStoreUnavailableError(`The SQLite task store on ${this.file} is closed`);
    this.reads.close(closed);
    this.writes.close(closed);
    if (this.db.open) this.db.close();
  }

  /** Sets the file up (WAL, the schema) and prepares the statements; may throw a lock error. */
  private open(): Statements {
    this.db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode survives a killed process; only a power loss can drop the last commits.
    this.db.pragma("synchronous = NORMAL");
    this.immediate(() => migrate(this.db, this.clock()));
    return prepare(this.db);
  }

  /** Finishes an opening that found the file locked; a failure is tried again by the next operation. */
  private opened(): Promise<Statements> {
    this.opening ??= this.write(() => this.open(), false).then(
      (statements) => {
        this.opening = undefined;
        return (this.statements ??= statements);
      },
      (error: unknown) => {
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  private readDataVersion(): number {
    return this.db.pragma("data_version", { simple: true }) as number;
  }

  /** Another connection committed since the last look: re-read the watched tasks. One look at a time; a failed one is logged and the next tick looks again. */
  private poll(): void {
    const statements = this.statements;
    if (this.polling || !statements) return;
    this.polling = true;
    const ids = this.watchers.taskIds();
    this.read(() => {
      const version = this.readDataVersion();
      if (version === this.dataVersion) return undefined;
      const rows = statements.watched.all(JSON.stringify(ids)) as TaskRow[];
      return { version, rows, now: this.clock() };
    })
      .then((look) => {
        if (!look || !this.poller) return;
        this.dataVersion = look.version;
        const rows = new Map(look.rows.map((row) => [row.id, row]));
        for (const id of ids) {
          const row = rows.get(id);
          this.watchers.deliver(id, row && { row, now: look.now });
        }
      })
      .catch((error: unknown) => {
        if (this.db.open)
          this.logger.warn("The SQLite task store could not look for changes", {
            error: error instanceof Error ? error.message : String(error),
          });
      })
      .finally(() => {
        this.polling = false;
      });
  }

  private read<T>(work: () => T): Promise<T> {
    return this.translated(this.reads.run(work));
  }

  /** A write: in an IMMEDIATE transaction unless `transaction` is false (one statement, atomic on its own). */
  private write<T>(work: () => T, transaction = true): Promise<T> {
    return this.translated(this.writes.run(transaction ? () => this.immediate(work) : work));
  }

  private translated<T>(done: Promise<T>): Promise<T> {
    return done.catch((error: unknown) => {
      throw translate(error, this.file);
    });
  }
}

function migrate(db: Database, now: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS roundtrip_schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const current = (db.prepare("SELECT coalesce(max(version), 0) AS v FROM roundtrip_schema_version").get() as { v: number }).v;
  if (current > SQLITE_MIGRATIONS.length) {
    throw new TaskStoreConfigError(
      `The SQLite task store's schema is version ${current}, newer than this roundtrip-mcp knows (${SQLITE_MIGRATIONS.length}); upgrade roundtrip-mcp`,
    );
  }
  const record = db.prepare("INSERT INTO roundtrip_schema_version (version, applied_at) VALUES (?, ?)");
  for (const [index, migration] of SQLITE_MIGRATIONS.slice(current).entries()) {
    const version = current + 1 + index;
    db.exec(migration);
    record.run(version, now);
  }
}

/** The store's SQL, by statement (exported for the query-plan test). */
export const SQLITE_QUERIES = (() => {
  const selectBatch = (selection: BatchSelection) =>
    `SELECT * FROM roundtrip_tasks WHERE ${selectionSql(selection, "@now", "roundtrip_tasks")} LIMIT @limit`;
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
  return Object.fromEntries(Object.entries(SQLITE_QUERIES).map(([name, sql]) => [name, db.prepare(sql)])) as Record<
    keyof typeof SQLITE_QUERIES,
    Statement
  >;
}
