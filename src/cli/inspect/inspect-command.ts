// `roundtrip-mcp inspect [entry]`: loads the app without serving it and prints what a client
// will see, with what only the declarations say; `--json` for scripts. An error while the app is
// built is printed as the app's own start-up would print it (console.error of the error).
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { ownPackage } from "../package-root";
import type { CliIo } from "../cli-io";
import { findProject, resolveEntry } from "../project/app-project";
import { appReport } from "./app-report";
import { appFrom, requireEntry } from "./load-app";
import { reportText } from "./report-text";

export interface InspectOptions {
  readonly json?: boolean;
  readonly export?: string;
}

/** Exit code 1 when the app cannot be loaded or built. */
export async function inspectCommand(
  entryArg: string | undefined,
  options: InspectOptions,
  io: CliIo,
  argv: readonly string[] = [],
): Promise<number> {
  const project = findProject(io.cwd);
  const theirs = appCopy(project.root);
  if (theirs !== undefined) {
    // The app loads its own roundtrip-mcp: the command of that copy inspects it, so the app and the
    // inspection share one copy of the framework and its libraries.
    return spawnSync(process.execPath, [theirs, ...argv], { cwd: io.cwd, env: io.env, stdio: "inherit" }).status ?? 1;
  }
  const entry = resolveEntry(project, io.cwd, entryArg, ["src/app.ts", "src/main.ts", project.packageJson.main ?? "index.js"]);
  let app;
  try {
    app = await appFrom(requireEntry(project, entry), options.export, entry);
  } catch (error) {
    if ((error as Error).name === "CliError") throw error;
    io.err(inspect(error));
    return 1;
  }
  try {
    const report = await appReport(app);
    io.out(options.json ? JSON.stringify(report, null, 2) : reportText(report));
    return 0;
  } finally {
    await app.close();
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
