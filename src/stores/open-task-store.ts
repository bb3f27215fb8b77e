import os from "node:os";
import path from "node:path";
import { MemoryTaskStore } from "./memory-task-store";
import type { PostgresPoolOptions } from "./postgres-pool";
import { PostgresTaskStore } from "./postgres-task-store";
import type { TaskStoreOptions } from "./row-task-store";
import { SqliteTaskStore } from "./sqlite-task-store";
import type { TaskStore } from "./task-store";
import { TaskStoreConfigError } from "./task-store-errors";

/** The store an app gets when it names none: a SQLite file in the data directory. */
export const DEFAULT_TASK_STORE_URL = "sqlite:";

/** The file `sqlite:` names in a data directory. */
export const DEFAULT_SQLITE_FILE = "tasks.sqlite";

/**
 * Where `sqlite:` keeps its file when no data directory is given: `<os.tmpdir()>/roundtrip-mcp/<appName>`
 * (the name with every character but A-Za-z0-9 . _ - replaced by _), or `<os.tmpdir()>/roundtrip-mcp`
 * without a name. An app's tasks feature passes the app's name, so each app has a file of its own.
 *
 * @example defaultDataDir("support-desk") // "/tmp/roundtrip-mcp/support-desk" on Linux
 */
export function defaultDataDir(appName?: string): string {
  const root = path.join(os.tmpdir(), "roundtrip-mcp");
  if (appName === undefined || appName === "") return root;
  const folder = appName.replace(/[^A-Za-z0-9._-]/g, "_");
  return path.join(root, folder === "." || folder === ".." ? folder.replace(/\./g, "_") : folder);
}

/** How a `postgres://` URL's pool is sized and bounded (PostgresPoolOptions says the defaults). */
export type PostgresUrlOptions = Pick<
  PostgresPoolOptions,
  "poolSize" | "connectTimeoutMs" | "statementTimeoutMs" | "queryTimeoutMs" | "idleInTransactionTimeoutMs"
>;

export interface OpenTaskStoreOptions extends TaskStoreOptions, PostgresUrlOptions {
  /** The folder of the default SQLite file (`sqlite:` with no file); default `defaultDataDir(appName)`. */
  readonly dataDir?: string;
  /**
   * The app whose default data directory `sqlite:` uses when no `dataDir` is given. The tasks
   * feature sets it to the app's name (`McpAppOptions.name`).
   */
  readonly appName?: string;
  /** The clock of the memory and SQLite stores (default `Date.now`); PostgreSQL always uses the database's. */
  readonly clock?: () => number;
  /** How long a SQLite operation waits for another process's lock, without blocking, before it fails (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /** The PostgreSQL schema holding the tables (default "public"). */
  readonly schema?: string;
}

/**
 * Opens the store a URL names:
 * - `memory:`: in this process only;
 * - `sqlite:<file>` (also `sqlite://<file>`, `sqlite:///abs/file`): a relative file is relative
 *   to the working directory; `sqlite:` alone is `tasks.sqlite` in the data directory (`dataDir`, else `defaultDataDir(appName)`);
 * - `postgres://…` or `postgresql://…`: a libpq connection URL.
 *
 * Anything else throws TaskStoreConfigError naming the scheme (never the rest, which may hold a password).
 */
export async function openTaskStore(url: string, options: OpenTaskStoreOptions = {}): Promise<TaskStore> {
  if (typeof url !== "string") throw new TaskStoreConfigError("A task store URL must be a string");
  const common: TaskStoreOptions = { limits: options.limits, logger: options.logger };
  if (url === "memory:") return new MemoryTaskStore({ ...common, clock: options.clock });
  if (url.startsWith("sqlite:")) {
    let file = url.slice("sqlite:".length);
    if (file.startsWith("//")) file = file.slice(2);
    return new SqliteTaskStore({
      ...common,
      clock: options.clock,
      busyTimeoutMs: options.busyTimeoutMs,
      file: file === "" ? path.join(options.dataDir ?? defaultDataDir(options.appName), DEFAULT_SQLITE_FILE) : file,
    });
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const { poolSize, connectTimeoutMs, statementTimeoutMs, queryTimeoutMs, idleInTransactionTimeoutMs } = options;
    return PostgresTaskStore.open({
      ...common,
      connectionString: url,
      schema: options.schema,
      poolSize,
      connectTimeoutMs,
      statementTimeoutMs,
      queryTimeoutMs,
      idleInTransactionTimeoutMs,
    });
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  throw new TaskStoreConfigError(
    `${scheme === undefined ? "A task store URL needs a scheme" : `Unknown task store scheme "${scheme}:"`}; expected memory:, sqlite:<file> (or sqlite: for the default file) or postgres://…`,
  );
}
