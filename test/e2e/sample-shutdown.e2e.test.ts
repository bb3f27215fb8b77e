// Pins the samples' SIGTERM handling on the compiled build, as real child processes (`npm test`
// builds first):
// - the conformance sample (node dist/sample/conformance/main-http.js) sent SIGTERM while a tool
//   call is in flight answers that call whole (200, its result), logs what it drained, and exits 0;
// - the tasks sample (node dist/sample/tasks/main-http.js) sent SIGTERM while a task runs exits 0
//   and releases the task's lease: another store user claims the task at once, long before the
//   30 s lease would have lapsed;
// - the tasks sample over stdio (dist/sample/tasks/main-stdio.js) sent SIGTERM right after a
//   request answers it (its result, or -32000 "shutting down" when the signal came first) and exits 0.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as readline from "node:readline";
import { openTaskStore } from "../../src/stores/index";
import { meta, rpc } from "../support/raw-http";
import { keepAlive } from "../support/raw-socket";

const ROOT = path.resolve(__dirname, "../..");
const CONFORMANCE = path.join(ROOT, "dist/sample/conformance/main-http.js");
const TASKS_HTTP = path.join(ROOT, "dist/sample/tasks/main-http.js");
const TASKS_STDIO = path.join(ROOT, "dist/sample/tasks/main-stdio.js");
const DECLARING = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

interface Sample {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

let folder: string;
const started: ChildProcess[] = [];

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "roundtrip-shutdown-"));
});
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Starts a compiled sample and resolves once it printed the line holding its URL. */
async function start(file: string, env: Record<string, string>): Promise<Sample> {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
    void exited.then(() => reject(new Error(`${file} exited before it served:\n${stderr}`)));
  });
  const url = /http:\/\/[^\s]+/.exec(line)![0];
  return { child, url, exited, stderr: () => stderr };
}

describe("the samples on SIGTERM", () => {
  it("conformance main-http answers the call in flight, then exits 0", async () => {
    const sample = await start(CONFORMANCE, { TASK_STORE: `sqlite:${path.join(folder, "tasks.sqlite")}` });
    const port = Number(new URL(sample.url).port);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "slow_compute", arguments: { seconds: 1, label: "the sum" }, _meta: meta() },
    });
    const connection = await keepAlive(port);
    const answer = connection.send(
      `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: slow_compute`,
      body,
    );
    // Answered on a connection opened after the slow call's bytes were sent: the server read that call first.
    expect(
      (await rpc(sample.url.replace("localhost", "127.0.0.1"), "tools/call", { name: "greet", arguments: { name: "x" }, _meta: meta() }))
        .status,
    ).toBe(200);
    sample.child.kill("SIGTERM");
    const received = await answer;
    expect(received.error).toBeUndefined();
    expect(received.status).toBe(200);
    expect(received.body).toMatchObject({ id: 5, result: { content: [{ type: "text", text: "Computed the sum in 1 s" }] } });
    expect(await sample.exited).toBe(0);
    const drained = sample
      .stderr()
      .split("\n")
      .find((line) => line.includes('"HTTP listener closed"'));
    expect(JSON.parse(drained!)).toMatchObject({ level: "info", inFlight: 1, finished: 1, ended: 0 });
  });

  it("tasks main-http releases a running task's lease, so another instance claims it at once", async () => {
    const sample = await start(TASKS_HTTP, { DATA_DIR: folder, TASK_STORE: "", REPORT_STEP_MS: "600000" });
    const created = await rpc(sample.url, "tools/call", { name: "build_report", arguments: { topic: "shutdown" }, _meta: meta(DECLARING) });
    const taskId = (created.body!.result as { taskId: string }).taskId;
    expect(typeof taskId).toBe("string");
    sample.child.kill("SIGTERM");
    expect(await sample.exited).toBe(0);

    const store = await openTaskStore(`sqlite:${path.join(folder, "tasks.sqlite")}`);
    try {
      const claimed = await store.claim(taskId, "the-next-instance", 60_000);
      expect(claimed?.task).toMatchObject({ id: taskId, status: "working" });
      expect(claimed?.lease.owner).toBe("the-next-instance");
    } finally {
      await store.close();
    }
  });

  it("tasks main-stdio answers the request sent before SIGTERM, then exits 0", async () => {
    const file = TASKS_STDIO;
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, [file], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, TASK_STORE: "", REPORT_STEP_MS: "600000" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    started.push(child);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const lines = readline.createInterface({ input: child.stdout! });
    const answers: Record<string, unknown>[] = [];
    const answered = (id: number) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const check = () => {
          const found = answers.find((a) => a.id === id);
          if (found) {
            lines.off("line", onLine);
            resolve(found);
          }
        };
        const onLine = (line: string) => (answers.push(JSON.parse(line) as Record<string, unknown>), check());
        lines.on("line", onLine);
        check();
      });
    const send = (id: number, method: string, params: Record<string, unknown>) =>
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(DECLARING) } })}\n`);
    // A task that runs (its report step takes 10 minutes), then a tasks/get sent right before SIGTERM.
    send(1, "tools/call", { name: "build_report", arguments: { topic: "stdio" } });
    const taskId = ((await answered(1)).result as { taskId: string }).taskId;
    send(2, "tasks/get", { taskId });
    child.kill("SIGTERM");
    // Read before the signal or after it: answered either way, never left waiting.
    const second = await answered(2);
    if (second.error === undefined) expect(second).toMatchObject({ id: 2, result: { taskId, status: "working" } });
    else expect(second).toMatchObject({ id: 2, error: { code: -32000, message: expect.stringContaining("shutting down") } });
    expect(await exited).toBe(0);
  });
});
