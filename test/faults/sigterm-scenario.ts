// The SIGTERM scenario: the tasks sample (dist/sample/tasks/main-http.js, SQLite in DATA_DIR)
// gets SIGTERM with a task running and a tools/call in flight. The call is in flight for sure:
// it is sent with `Expect: 100-continue`, the signal goes once the server said 100 Continue,
// and its body once the server shows it is closing (a new request is refused, reset or
// answered 503). Counted: the call's answer not arriving (dropped, or a hang past
// FAULTS_DEADLINE_MS), the process not exiting by itself within FAULTS_EXIT_MS of the signal
// (a hang; it is then killed) or exiting with a failure code (a crash). Then the sample starts
// again on the same file and both tasks (the running one, and the one the call created) must
// end completed with their results within FAULTS_SETTLE_MS.
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { meta } from "../support/raw-http";
import { DECLARING, send, type ResultFields } from "./fault-client";
import type { FaultSettings } from "./fault-settings";
import { Tally, type ScenarioReport } from "./fault-tally";
import { countCrash, pause, ServerProcess, TASKS_SAMPLE } from "./server-process";
import { createTask, drive, step, verdict, type Flow, type TrackedTask } from "./task-flow";

/** A task long enough to be running when the signal comes: 6 sections of at least 250 ms. */
const SECTIONS = 6;

type CallEnd = { kind: "answer"; status: number; text: string } | { kind: "dropped"; reason: string } | { kind: "hang" };

/** A tools/call whose body waits until `finish()`: `continued` resolves once the server took the request in hand. */
function heldCall(url: string, topic: string, deadlineMs: number) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "build_report", arguments: { topic, sections: 1 }, _meta: meta(DECLARING) },
  });
  const req = request(url, {
    method: "POST",
    agent: false,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "build_report",
      "content-length": String(Buffer.byteLength(body)),
      expect: "100-continue",
    },
  });
  let timer: NodeJS.Timeout | undefined;
  let answered = false;
  const ended = new Promise<CallEnd>((resolve) => {
    req.on("response", (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ kind: "answer", status: res.statusCode ?? 0, text }));
      res.on("error", (error) => resolve({ kind: "dropped", reason: `the answer broke off: ${error.message}` }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ kind: "dropped", reason: `${error.code ?? ""} ${error.message}`.trim() }));
    req.on("close", () => answered || resolve({ kind: "dropped", reason: "the connection closed with no answer" }));
    timer = setTimeout(() => resolve({ kind: "hang" }), deadlineMs);
  }).finally(() => clearTimeout(timer));
  const continued = new Promise<boolean>((resolve) => {
    req.once("continue", () => resolve(true));
    void ended.then(() => resolve(false));
  });
  req.flushHeaders();
  return { continued, ended, finish: () => req.end(body) };
}

export async function sigtermScenario(settings: FaultSettings): Promise<ScenarioReport> {
  const tally = new Tally("sigterm");
  const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-faults-sigterm-"));
  const env = { DATA_DIR: folder, REPORT_STEP_MS: String(Math.max(250, settings.stepMs)), PORT: "0" };
  const flow: Flow = { tally, deadlineMs: settings.deadlineMs };
  let server = await ServerProcess.start("sample", TASKS_SAMPLE, env);
  try {
    countCrash(tally, server);
    const first = { url: server.url, name: "the sample" };
    const running = await createTask(first, "sigterm running report", SECTIONS, flow);
    if (running === undefined) throw new Error("the sample did not acknowledge the task to run across SIGTERM");
    await step(running, first, flow);

    const call = heldCall(server.url, "sigterm call in flight", settings.deadlineMs);
    if (!(await call.continued)) throw new Error("the sample never took the held tools/call in hand (no 100 Continue)");
    const signalledAt = Date.now();
    tally.note(`SIGTERM sent with a tools/call in flight and task ${running.id} ${running.status}`);
    server.signal("SIGTERM");

    // The server shows it is closing: a new request no longer gets an ordinary answer.
    let acceptedAfter = 0;
    let closing = "";
    while (!closing && Date.now() - signalledAt < settings.exitMs) {
      const probe = await send(server.url, "tools/list", {}, settings.deadlineMs);
      if (probe.kind === "answer" && probe.status === 200) acceptedAfter++;
      else
        closing =
          probe.kind === "answer"
            ? `answered ${probe.status}${probe.headers.get("retry-after") ? ` with Retry-After ${probe.headers.get("retry-after")}` : " without Retry-After"}`
            : probe.kind;
      if (!closing) await pause(20);
    }
    tally.note(
      `after SIGTERM the sample answered ${acceptedAfter} new request(s) normally, then a new request was ${closing || "still answered"}`,
    );
    call.finish();
    const end = await call.ended;
    tally.requests++;
    let callTask: TrackedTask | undefined;
    if (end.kind === "hang") tally.count("hangs", `the tools/call in flight at SIGTERM got no answer within ${settings.deadlineMs} ms`);
    else if (end.kind === "dropped") tally.count("dropped", `the tools/call in flight at SIGTERM: ${end.reason}`);
    else {
      const answer = parse(end.text);
      if (answer?.error?.code === -32603) tally.count("internalErrors", `the tools/call in flight at SIGTERM: ${end.text.slice(0, 200)}`);
      else if (answer?.result?.resultType === "task" && typeof answer.result.taskId === "string")
        callTask = {
          id: answer.result.taskId,
          topic: "sigterm call in flight",
          sections: 1,
          ackAt: Date.now(),
          on: "the sample",
          resultSeen: false,
        };
      else
        tally.count(
          "dropped",
          `the tools/call in flight at SIGTERM was answered ${end.status} ${end.text.slice(0, 200)} instead of its result`,
        );
    }

    const exit = await Promise.race([
      server.exited,
      pause(Math.max(0, settings.exitMs - (Date.now() - signalledAt))).then(() => undefined),
    ]);
    if (exit === undefined) {
      tally.count("hangs", `the sample did not exit within ${settings.exitMs} ms of SIGTERM`);
      await server.kill();
    } else {
      tally.note(`the sample exited ${exit.at - signalledAt} ms after SIGTERM (${exit.signal ?? `code ${exit.code}`})`);
      if (exit.code !== 0)
        tally.count("crashes", `after SIGTERM the sample exited with ${exit.signal ?? `code ${exit.code}`}: ${server.crashLine()}`);
    }

    server = await ServerProcess.start("sample (restarted)", TASKS_SAMPLE, env);
    countCrash(tally, server);
    const again = { url: server.url, name: "the restarted sample" };
    const tasks = callTask === undefined ? [running] : [running, callTask];
    const until = Date.now() + settings.settleMs;
    await Promise.all(tasks.map((task) => drive(task, () => again, until, flow)));
    for (const task of tasks) await verdict(task, again, flow, true);
    const ended = tasks.filter((t) => t.endedAt !== undefined).map((t) => `${t.endedAt! - signalledAt} ms`);
    tally.note(`after the restart the tasks ended ${ended.length > 0 ? ended.join(", ") : "never"} after SIGTERM`);
    return tally.report();
  } finally {
    await server.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A JSON body, or the last message of an SSE stream. */
function parse(text: string): { result?: ResultFields; error?: { code: number } } | undefined {
  try {
    const data = text.split("\n").filter((line) => line.startsWith("data:"));
    return JSON.parse(data.length > 0 ? data[data.length - 1]!.slice(5) : text);
  } catch {
    return undefined;
  }
}
