// The task fixture app (test/e2e/fixtures/task-app.ts) served over HTTP in a child process of
// its own (the compiled serve-task-http.js), for tests that need several processes on one store
// or a process to kill -9; plus the raw requests and waits those tests make.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as readline from "node:readline";
import { meta, rpc } from "./raw-http";
import { validateServerMessage } from "./wire-schema";

const SERVE = path.resolve(__dirname, "../../dist/test/e2e/fixtures/serve-task-http.js");
export const DECLARING = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

export interface TaskServer {
  readonly url: string;
  readonly pid: number;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Sends `signal` (SIGTERM by default) and resolves once the process exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a task server with these TASK_* variables; resolves once it printed its URL. */
export function startTaskServer(env: Record<string, string>): Promise<TaskServer> {
  return startServerProcess(SERVE, env);
}

/**
 * Starts a compiled server script (`node <script>`) with `env` added; resolves once its first
 * stdout line is out, with the URL at the end of that line.
 */
export async function startServerProcess(script: string, env: Record<string, string>): Promise<TaskServer> {
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first`);
  const child: ChildProcess = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.split(" ").at(-1)!));
    void exited.then(() => reject(new Error(`${path.basename(script)} exited before it served:\n${stderr}`)));
  });
  return {
    url,
    pid: child.pid!,
    stderr: () => stderr,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** One request as a declaring client (or `principal`), validated against the schemas; the response. */
export async function call(
  url: string,
  method: string,
  params: Record<string, unknown>,
  principal?: string,
): Promise<{ result?: Record<string, unknown>; error?: Record<string, unknown> }> {
  const response = await rpc(
    url,
    method,
    { ...params, _meta: meta(DECLARING) },
    { headers: principal === undefined ? {} : { "x-test-principal": principal } },
  );
  validateServerMessage(response.body, method);
  return response.body as { result?: Record<string, unknown>; error?: Record<string, unknown> };
}

/** Polls `check` every 20 ms until it returns something, or fails after `timeoutMs` naming `what`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** tasks/get until the task has one of `statuses`. */
export function taskReaches(
  url: string,
  taskId: string,
  statuses: readonly string[],
  principal?: string,
): Promise<Record<string, unknown>> {
  return eventually(`task ${taskId} to be ${statuses.join(" or ")}`, async () => {
    const { result } = await call(url, "tasks/get", { taskId }, principal);
    return result !== undefined && typeof result.status === "string" && statuses.includes(result.status) ? result : undefined;
  });
}
