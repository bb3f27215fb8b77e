// Loads the app without serving it: the entry module (TypeScript through the app's ts-node, in
// transpile-only mode, which emits decorator metadata), then the McpApp it exports or makes.
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

/** The app the module exports (`--export` names it), built when it is a function. */
export async function appFrom(exports: Record<string, unknown>, exportName: string | undefined, entry: string): Promise<McpApp> {
  const source = pickSource(exports, exportName, entry);
  const app = typeof source === "function" ? await source() : source;
  if (!isMcpApp(app)) throw new CliError(`${describeExport(exportName)} of ${entry} did not make an McpApp (got ${typeof app})`);
  return app;
}

function pickSource(exports: Record<string, unknown>, exportName: string | undefined, entry: string): AppSource {
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
  throw new CliError(
    `${entry} exports no McpApp and no createApp(): export one from a module that does not serve (roundtrip-mcp init writes src/app.ts), or name it with --export <name>`,
  );
}

function describeExport(name: string | undefined): string {
  return name === undefined ? "the export found" : `export ${name}`;
}
