// Loads the app without serving it: the entry module (TypeScript through the app's ts-node, in
// transpile-only mode, which emits decorator metadata), then the McpApp it exports or makes. An
// entry that makes and serves its app as it loads (a main calling listen() or serveStdio()) gives
// that app: while it loads, the apps McpApp.create makes are noted and their serving is held back.
import { createRequire } from "node:module";
import path from "node:path";
import type { McpApp } from "roundtrip-mcp";
import { CliError } from "../cli-error";
import { entryBuild, appTypeScript, type AppProject } from "../project/app-project";

/** Names looked for, in order, when no --export is given. */
const FACTORY_NAMES = ["createApp", "app", "default"];

/** Something the module exports that is an app, or a function making one. */
type AppSource = McpApp | (() => McpApp | Promise<McpApp>);

export function isMcpApp(value: unknown): value is McpApp {
  const app = value as Partial<McpApp> | null;
  return typeof app === "object" && app !== null && typeof app.describe === "function" && typeof app.connect === "function";
}

/** The app an entry gives, and `release()`, which ends the hold on serving (call it once done with the app). */
export interface LoadedApp {
  readonly app: McpApp;
  release(): void;
}

/**
 * The app of `entry`: the one its exports give (`--export` names it), else the one it made as it
 * loaded, up to one turn of the event loop after (a main that awaited something already settled).
 * Until `release()`, `listen()` and `serveStdio()` of every app serve nothing (listen's promise
 * never settles), so loading a main binds no port and reads no stdin.
 */
export async function loadApp(project: AppProject, entry: string, exportName: string | undefined): Promise<LoadedApp> {
  const hold = holdServing(entry);
  try {
    const exports = requireEntry(project, entry);
    await new Promise((resolve) => setImmediate(resolve));
    hold.stopNoting();
    const app = await appFrom(exports, exportName, entry, hold.created);
    return { app, release: () => hold.release() };
  } catch (error) {
    hold.release();
    throw error;
  }
}

/** Requires `entry`; the TypeScript loader is registered first for a .ts file. */
export function requireEntry(project: AppProject, entry: string): Record<string, unknown> {
  if (/\.(c|m)?tsx?$/.test(entry)) registerTypeScript(project, entry);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the app's module, known only at run time
  return require(entry) as Record<string, unknown>;
}

function registerTypeScript(project: AppProject, entry: string): void {
  const build = entryBuild(appTypeScript(project), project, entry);
  let tsNode: string;
  try {
    tsNode = require.resolve("ts-node", { paths: [project.root] });
  } catch {
    throw new CliError(
      `loading ${path.relative(project.root, entry)} needs ts-node in the app: npm install --save-dev --save-exact ts-node@10.9.2`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the app's own ts-node
  const { register } = require(tsNode) as { register(options: object): unknown };
  register({ project: build.configFile, transpileOnly: true, compilerOptions: { sourceMap: true } });
}

interface ServingHold {
  /** The apps made while the entry loaded, in order. */
  readonly created: readonly McpApp[];
  stopNoting(): void;
  release(): void;
}

type McpAppClass = typeof McpApp;
type Serving = Pick<McpApp, "listen" | "serveStdio">;

/**
 * Notes the apps `McpApp.create` makes and holds back their serving, on the copy of roundtrip-mcp
 * the entry loads (none is held when the entry cannot load one: it fails on its own import then).
 */
function holdServing(entry: string): ServingHold {
  const created: McpApp[] = [];
  let cls: McpAppClass;
  try {
    // The copy the entry imports, as its own require finds it (a self-reference inside this repository included).
    cls = (createRequire(entry)("roundtrip-mcp") as { McpApp: McpAppClass }).McpApp;
  } catch {
    return { created, stopNoting() {}, release() {} };
  }
  const proto = cls.prototype as Serving;
  const create = Object.getOwnPropertyDescriptor(cls, "create")!;
  const serving = {
    listen: Object.getOwnPropertyDescriptor(proto, "listen")!,
    serveStdio: Object.getOwnPropertyDescriptor(proto, "serveStdio")!,
  };
  Object.defineProperty(cls, "create", {
    ...create,
    value(this: McpAppClass, ...args: Parameters<McpAppClass["create"]>) {
      const app = (create.value as McpAppClass["create"]).apply(this, args);
      created.push(app);
      return app;
    },
  });
  Object.defineProperty(proto, "listen", { ...serving.listen, value: () => new Promise<never>(() => {}) });
  Object.defineProperty(proto, "serveStdio", { ...serving.serveStdio, value: () => ({ close: () => Promise.resolve() }) });
  let noting = true;
  const stopNoting = () => {
    if (noting) Object.defineProperty(cls, "create", create);
    noting = false;
  };
  return {
    created,
    stopNoting,
    release() {
      stopNoting();
      Object.defineProperty(proto, "listen", serving.listen);
      Object.defineProperty(proto, "serveStdio", serving.serveStdio);
    },
  };
}

/** The app the module exports (`--export` names it), built when it is a function; else the one it made as it loaded. */
export async function appFrom(
  exports: Record<string, unknown>,
  exportName: string | undefined,
  entry: string,
  created: readonly McpApp[] = [],
): Promise<McpApp> {
  const source = pickSource(exports, exportName, entry, created);
  const app = typeof source === "function" ? await source() : source;
  if (!isMcpApp(app)) throw new CliError(`${describeExport(exportName)} of ${entry} did not make an McpApp (got ${typeof app})`);
  return app;
}

function pickSource(
  exports: Record<string, unknown>,
  exportName: string | undefined,
  entry: string,
  created: readonly McpApp[],
): AppSource {
  if (exportName !== undefined) {
    const value = exports[exportName];
    if (isMcpApp(value) || typeof value === "function") return value as AppSource;
    throw new CliError(
      `${entry} exports no function or McpApp named ${exportName} (it exports ${Object.keys(exports).join(", ") || "nothing"})`,
    );
  }
  const apps = Object.values(exports).filter(isMcpApp);
  if (apps.length === 1) return apps[0]!;
  for (const name of FACTORY_NAMES) {
    const value = exports[name];
    if (isMcpApp(value) || typeof value === "function") return value as AppSource;
  }
  const factories = Object.entries(exports).filter(([name, value]) => typeof value === "function" && /^create\w*App$/.test(name));
  if (factories.length === 1) return factories[0]![1] as AppSource;
  if (factories.length === 0 && created.length === 1) return created[0]!;
  const found =
    factories.length > 1
      ? ` (it exports ${factories.map(([name]) => name).join(", ")}: name one)`
      : created.length > 1
        ? ` (it made ${created.length} apps as it loaded: export the one to look at)`
        : "";
  throw new CliError(
    `${entry} exports no McpApp and no createApp()${found}: export one from a module that does not serve (roundtrip-mcp init writes src/app.ts), or name it with --export <name>`,
  );
}

function describeExport(name: string | undefined): string {
  return name === undefined ? "the export found" : `export ${name}`;
}
