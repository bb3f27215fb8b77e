// What a command that looks at the app shares (inspect, server-json): the app's project, its
// entry, and the app loaded without serving it. An error while the app is built is printed as the app's own start-up would print it
// (console.error of the error), and the command exits 1.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import type { McpApp } from "roundtrip-mcp";
import type { CliIo } from "../cli-io";
import { ownPackage } from "../package-root";
import { findProject, resolveEntry, type AppProject } from "../project/app-project";
import { loadApp, type LoadedApp } from "./load-app";

export interface EntryOptions {
  /** The export that is the McpApp or makes it (`--export`). */
  readonly export?: string;
}

/**
 * Runs `use` on the app of `entryArg` (default src/app.ts, else src/main.ts, else package.json
 * main), then closes it; the exit code. `argv` is the command line, run again by the app's own
 * copy of roundtrip-mcp when that is another copy than this one.
 */
export async function withEntryApp(
  entryArg: string | undefined,
  options: EntryOptions,
  io: CliIo,
  argv: readonly string[],
  use: (app: McpApp, project: AppProject) => Promise<void> | void,
): Promise<number> {
  const project = findProject(io.cwd);
  const theirs = appCopy(project.root);
  if (theirs !== undefined) {
    // The app loads its own roundtrip-mcp: the command of that copy runs, so the app and the command
    // share one copy of the framework and its libraries.
    return spawnSync(process.execPath, [theirs, ...argv], { cwd: io.cwd, env: io.env, stdio: "inherit" }).status ?? 1;
  }
  const entry = resolveEntry(project, io.cwd, entryArg, ["src/app.ts", "src/main.ts", project.packageJson.main ?? "index.js"]);
  let loaded: LoadedApp;
  try {
    loaded = await loadApp(project, entry, options.export);
  } catch (error) {
    if ((error as Error).name === "CliError") throw error;
    io.err(inspect(error));
    return 1;
  }
  try {
    await use(loaded.app, project);
    return 0;
  } finally {
    loaded.release();
    await loaded.app.close();
  }
}

/** The command of the roundtrip-mcp the app depends on, when that is another copy than this one. */
function appCopy(root: string): string | undefined {
  let entry: string;
  try {
    entry = require.resolve("roundtrip-mcp", { paths: [root] });
  } catch {
    return undefined;
  }
  const theirRoot = path.resolve(path.dirname(entry), "..", "..");
  const command = path.join(theirRoot, "dist", "src", "cli", "main.js");
  return existsSync(command) && realpathSync(theirRoot) !== realpathSync(ownPackage().root) ? command : undefined;
}
