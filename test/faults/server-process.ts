// A server under fault as a child process of its own: the compiled tasks sample
// (dist/sample/tasks/main-http.js) or the fault run's probe app. It resolves once the process
// printed its URL, and tells whether it exited on its own (a crash) or because it was told to.
// FAULTS_LOGS=<folder> keeps each process's stderr there (its last 64 KiB) once it exited.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as readline from "node:readline";
import type { Tally } from "./fault-tally";

const DIST = path.resolve(__dirname, "../../dist");
/** The tasks sample, as `npm run start:tasks` serves it. */
export const TASKS_SAMPLE = path.join(DIST, "sample/tasks/main-http.js");
/** The tasks sample's app plus a plain tool and a connection cap (test/faults/fixtures/serve-probe-app.ts). */
export const PROBE_APP = path.join(DIST, "test/faults/fixtures/serve-probe-app.js");
/** Holds a SQLite file's write lock from a process of its own (test/faults/fixtures/hold-sqlite-lock.ts). */
export const LOCK_HOLDER = path.join(DIST, "test/faults/fixtures/hold-sqlite-lock.js");

const STDERR_KEPT = 64 * 1024;

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly at: number;
  /** The harness sent a signal before it exited. */
  readonly asked: boolean;
}

export class ServerProcess {
  /** Resolves when the process exits. */
  readonly exited: Promise<Exit>;
  exit?: Exit;
  private stderrText = "";
  private asked = false;

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly child: ChildProcess,
    exited: Promise<Exit>,
  ) {
    this.exited = exited;
    void exited.then((exit) => (this.exit = exit));
  }

  /** Starts `entry` with `env` over the inherited environment; resolves once it printed its URL. */
  static async start(name: string, entry: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm run faults does)`);
    const child = spawn(process.execPath, [entry], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let server: ServerProcess | undefined;
    child.stderr!.on("data", (chunk: Buffer) => {
      if (server) server.keep(chunk.toString());
      else stderr += chunk.toString();
    });
    const exited = new Promise<Exit>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now(), asked: server?.asked ?? false })),
    );
    const lines = readline.createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} printed no URL within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
      lines.on("line", (line) => {
        const found = /(http:\/\/\S+)/.exec(line)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      void exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${exit.code ?? exit.signal}) before it served:\n${stderr}`));
      });
    });
    server = new ServerProcess(name, url, child, exited);
    server.keep(stderr);
    const logs = process.env.FAULTS_LOGS;
    if (logs) {
      const made = server;
      void exited.then(() => {
        fs.mkdirSync(logs, { recursive: true });
        fs.writeFileSync(path.join(logs, `${name.replace(/\W+/g, "-")}-${made.pid}.log`), made.stderr);
      });
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** The last 64 KiB the process wrote on stderr. */
  get stderr(): string {
    return this.stderrText;
  }

  /** Sends `signal` (the process is then expected to exit). */
  signal(signal: NodeJS.Signals): void {
    this.asked = true;
    if (this.alive) this.child.kill(signal);
  }

  /** SIGKILL, and the exit awaited. */
  async kill(): Promise<Exit> {
    this.signal("SIGKILL");
    return this.exited;
  }

  /** The first line of stderr that names why a crashed process died, for examples. */
  crashLine(): string {
    const lines = this.stderrText.split("\n").filter(Boolean);
    const fatal = lines.findIndex((l) => /Unhandled|Uncaught/.test(l));
    if (fatal === -1) return lines[lines.length - 1] ?? "(nothing on stderr)";
    // node prints the throw site, then the error and its fields: the site, the message, the code.
    const rest = lines.slice(fatal + 1);
    const error = rest.find((l) => /^\s*\w*[Ee]rror\b/.test(l));
    const code = rest.find((l) => /^\s*code: /.test(l));
    return [lines[fatal], error, code]
      .filter(Boolean)
      .map((l) => l!.trim())
      .join(" | ");
  }

  private keep(text: string): void {
    this.stderrText = (this.stderrText + text).slice(-STDERR_KEPT);
  }
}

/** Resolves after `ms`: for the length of a fault and for client poll intervals, never to wait for an event. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Counts a crash on `tally` when `server` exits without being told to; calls `then` after it. */
export function countCrash(tally: Tally, server: ServerProcess, then?: () => void): void {
  void server.exited.then((exit) => {
    if (exit.asked) return;
    tally.count(
      "crashes",
      `${server.name} (pid ${server.pid}) exited by itself (${exit.signal ?? `code ${exit.code}`}): ${server.crashLine()}`,
    );
    then?.();
  });
}
