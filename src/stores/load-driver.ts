import { TaskStoreConfigError } from "./task-store-errors";

/** The command that installs each driver: they are optional peer dependencies of roundtrip-mcp. */
export const DRIVER_INSTALL_COMMANDS = {
  "better-sqlite3": "npm install better-sqlite3@12",
  pg: "npm install pg",
} as const;

/**
 * Loads a database driver on first use, so an app that never opens that store never loads it
 * (better-sqlite3 is a native addon; pg opens nothing until asked, but still costs a require).
 * The drivers are optional peer dependencies: an app that uses a store installs its driver.
 */
export function loadDriver<T>(name: keyof typeof DRIVER_INSTALL_COMMANDS, store: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the driver is an optional peer
    return require(name) as T;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const missing = (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND" && message.includes(`'${name}'`);
    throw new TaskStoreConfigError(
      missing
        ? `The ${store} task store needs the package "${name}", which is not installed (roundtrip-mcp lists it as an optional peer ` +
            `dependency, so only apps that use this store install it). In your app, run: ${DRIVER_INSTALL_COMMANDS[name]}`
        : `The ${store} task store needs the package "${name}", which could not be loaded: ${message.split("\n")[0]}`,
      { cause: error },
    );
  }
}

/**
 * The error for a better-sqlite3 whose native binding cannot be loaded, saying the fix, or
 * undefined for any other error. The binding comes from its install script (a prebuilt download,
 * else a compile). npm 10 ignores `allowScripts` and always runs the script; npm 11 (11.16 and
 * later) runs it too and only warns when `allowScripts` does not list it, but skips it when
 * `allowScripts` says `false`, and refuses the install with `--strict-allow-scripts`.
 */
export function sqliteBindingError(error: unknown): TaskStoreConfigError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ERR_DLOPEN_FAILED" && !/bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/.test(message)) return undefined;
  return new TaskStoreConfigError(
    "The SQLite task store cannot load the native binding of better-sqlite3: its install script (which downloads a prebuilt " +
      "binding or compiles one) did not run or failed, or it was built for another Node.js version. In your app, run " +
      "npm rebuild better-sqlite3 and read its output (a compile needs python3, make and a C++ compiler). npm runs that script " +
      'unless told not to: keep "allowScripts": { "better-sqlite3": true } in your package.json (npm 11 then stops warning ' +
      "about it) rather than false, and do not install with --ignore-scripts. " +
      `(${message.split("\n")[0]})`,
    { cause: error },
  );
}
