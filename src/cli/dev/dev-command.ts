// `roundtrip-mcp dev [entry]`: `tsc --watch` on the app's own TypeScript (decorator metadata
// emitted as the build emits it) and a node process of the entry's JavaScript, restarted after
// every compile. It serves HTTP on PORT (3000 by default) and keeps one state key (STATE_KEYS) for
// the whole session, so a flow in progress survives a restart.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { appTypeScript, entryBuild, findProject, resolveEntry } from "../project/app-project";
import { AppProcess } from "./app-process";
import { inspectorCommands } from "./inspector-commands";

export interface DevOptions {
  readonly port?: string;
}

/** TypeScript's watch status codes: a change was seen; a compile ended (with or without errors). */
const CHANGE_DETECTED = 6032;
const COMPILE_ENDED = new Set([6193, 6194]);

export async function devCommand(entryArg: string | undefined, options: DevOptions, appArgs: readonly string[], io: CliIo): Promise<void> {
  const project = findProject(io.cwd);
  const entry = resolveEntry(project, io.cwd, entryArg, ["src/main.ts"]);
  if (!/\.(c|m)?tsx?$/.test(entry))
    throw new CliError(`dev runs TypeScript sources; ${path.relative(io.cwd, entry)} is not a .ts file (run JavaScript with node)`);
  const ts = appTypeScript(project);
  const build = entryBuild(ts, project, entry);
  const port = options.port ?? io.env.PORT ?? "3000";
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new CliError(`--port must be a port number (0 to 65535), got ${JSON.stringify(port)}`);
  const ownKeys = !io.env.STATE_KEYS?.trim();
  const env: NodeJS.ProcessEnv = {
    ...io.env,
    PORT: port,
    // One key for the whole session: a round sealed before a restart opens after it.
    STATE_KEYS: ownKeys ? `dev:${randomBytes(32).toString("base64")}` : io.env.STATE_KEYS,
  };

  let app: AppProcess | undefined;
  let changedAt = 0;
  let startedAt = 0;
  let announced = false;
  let restarts: Promise<void> = Promise.resolve();
  const start = (): void => {
    startedAt = Date.now();
    const run: AppProcess = new AppProcess({
      script: build.output,
      args: appArgs,
      cwd: project.root,
      env,
      stdout: process.stdout,
      stderr: process.stderr,
      onUrl: (url) => {
        if (run !== app) return;
        if (!announced) {
          announced = true;
          io.out(banner(url, run.pid, project.root, entry, ownKeys));
        } else {
          const since = changedAt || startedAt;
          io.out(`[dev] restarted (pid ${run.pid}) in ${((Date.now() - since) / 1000).toFixed(1)} s: ${url}`);
        }
      },
      onExit: (code, signal) => io.err(`[dev] the app exited (${signal ?? `code ${code}`}); waiting for a change to start it again`),
    });
    app = run;
  };
  const restart = (): void => {
    restarts = restarts.then(async () => {
      await app?.stop();
      start();
    });
  };

  const host = ts.createWatchCompilerHost(
    build.configFile,
    {},
    ts.sys,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    (diagnostic) => io.err(`[dev] ${ts.formatDiagnostic(diagnostic, formatHost(ts, project.root)).trimEnd()}`),
    (diagnostic) => {
      if (diagnostic.code === CHANGE_DETECTED) {
        changedAt = Date.now();
        io.out("[dev] change seen: compiling");
      } else if (COMPILE_ENDED.has(diagnostic.code)) {
        // Type errors are reported above; the JavaScript is still written, so the app restarts.
        restart();
      }
    },
  );
  io.out(`[dev] compiling ${path.relative(project.root, build.configFile)} (tsc --watch) ...`);
  const watch = ts.createWatchProgram(host);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      watch.close();
      void restarts.then(() => app?.stop()).then(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

function banner(url: string, pid: number | undefined, root: string, entry: string, ownKeys: boolean): string {
  const lines = [
    "",
    `[dev] serving ${path.relative(root, entry)} at ${url} (pid ${pid})`,
    `[dev] restarts on every change; ${ownKeys ? "a state key of this dev session (STATE_KEYS) is kept across restarts, so a flow in progress survives them" : "STATE_KEYS is yours: flows in progress survive restarts"}`,
    "[dev] the MCP Inspector (Node 22.19 or later), one command per protocol era:",
    ...inspectorCommands(url).map(({ era, command }) => `  ${era}:  ${command}`),
    "",
  ];
  return lines.join("\n");
}

function formatHost(ts: ReturnType<typeof appTypeScript>, root: string) {
  return { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
}
