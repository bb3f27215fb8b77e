import { TaskStoreConfigError } from "./task-store-errors";

/**
 * Loads a database driver on first use, so an app that never opens that store never loads it
 * (better-sqlite3 is a native addon; pg opens nothing until asked, but still costs a require).
 */
export function loadDriver<T>(name: "better-sqlite3" | "pg", store: string): T {
  try {
    return require(name) as T;
  } catch (error) {
    throw new TaskStoreConfigError(`The ${store} task store needs the package "${name}", which could not be loaded: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/**
 * The error for a better-sqlite3 whose native binding cannot be loaded, saying the fix, or
 * undefined for any other error. npm 11 does not run a dependency's install script (which
 * fetches or builds the binding) unless the app's package.json allows it.
 */
export function sqliteBindingError(error: unknown): TaskStoreConfigError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_DLOPEN_FAILED" && !/bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/.test(message)) return undefined;
  return new TaskStoreConfigError(
    "The SQLite task store cannot load the native binding of better-sqlite3. npm 11 runs a dependency's install script " +
      'only when package.json allows it: add "allowScripts": { "better-sqlite3": true } to your package.json, then run ' +
      `npm rebuild better-sqlite3 (or npm install again). (${message.split("\n")[0]})`,
    { cause: error },
  );
}
