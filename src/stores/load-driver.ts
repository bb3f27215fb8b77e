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
