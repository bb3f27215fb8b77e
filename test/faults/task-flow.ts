// A client's whole life with one task of the tasks sample (build_report): create it, poll
// tasks/get, answer its question (the appendix) with tasks/update, read the result; and the
// final verdict on an acknowledged task, by the rules in fault-tally.ts.
import { judge, send, type JsonRpcAnswer, type ResultFields } from "./fault-client";
import type { Outages, Tally } from "./fault-tally";
import { pause } from "./server-process";

export interface TrackedTask {
  readonly id: string;
  readonly topic: string;
  readonly sections: number;
  /** When the creation was acknowledged. */
  readonly ackAt: number;
  /** Which server acknowledged it. */
  readonly on: string;
  status?: string;
  /** When a terminal status was first read. */
  endedAt?: number;
  /** The task's own lastUpdatedAt when it ended (ms): when it failed, for a failed one. */
  endedByServerAt?: number;
  result?: unknown;
  error?: { code?: number; message?: string; data?: { reason?: string } };
  /** The last read was completed, with the right result. */
  resultSeen: boolean;
}

export interface Flow {
  /** Where counts go; a scenario may swap it (answers due from a process it killed count nowhere). */
  tally: Tally;
  readonly outages?: Outages;
  readonly deadlineMs: number;
  /** A task that failed while an outage lasted counts too (FAULTS_STRICT). */
  readonly strict?: boolean;
}

/** A server to talk to now, or undefined while none is up. */
export type Pick = () => { url: string; name: string } | undefined;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const POLL_MS = 100;

export function isEnded(task: TrackedTask): boolean {
  return task.status !== undefined && TERMINAL.has(task.status);
}

/** tools/call build_report; the tracked task when the server acknowledged it. */
export async function createTask(
  target: { url: string; name: string },
  topic: string,
  sections: number,
  flow: Flow,
): Promise<TrackedTask | undefined> {
  const outcome = await send(target.url, "tools/call", { name: "build_report", arguments: { topic, sections } }, flow.deadlineMs);
  const answer = judge(flow.tally, outcome, { what: `tools/call build_report on ${target.name}`, storeBound: true, outages: flow.outages });
  const result = answer?.result;
  if (result?.resultType !== "task" || typeof result.taskId !== "string") return undefined;
  return { id: result.taskId, topic, sections, ackAt: outcome.doneAt, on: target.name, status: result.status, resultSeen: false };
}

/** One tasks/get, and the answer to the question when the task asks it. */
export async function step(task: TrackedTask, target: { url: string; name: string }, flow: Flow): Promise<void> {
  const got = await get(task, target, flow);
  const read = got?.result;
  if (read === undefined) return;
  observe(task, read);
  if (read.status === "input_required" && read.inputRequests?.appendix !== undefined) {
    const outcome = await send(
      target.url,
      "tasks/update",
      { taskId: task.id, inputResponses: { appendix: { action: "accept", content: { appendix: true } } } },
      flow.deadlineMs,
    );
    judge(flow.tally, outcome, { what: `tasks/update on ${target.name}`, storeBound: true, outages: flow.outages });
  }
}

/** Polls and answers until the task ends, `until` passes or `stop()` says so. */
export async function drive(task: TrackedTask, pick: Pick, until: number, flow: Flow, stop: () => boolean = () => false): Promise<void> {
  while (!isEnded(task) && Date.now() < until && !stop()) {
    const target = pick();
    if (target !== undefined) await step(task, target, flow);
    if (!isEnded(task)) await pause(POLL_MS);
  }
}

/** Drives every task not ended yet, a few at a time, until each ends or `until` passes. */
export async function settle(tasks: readonly TrackedTask[], pick: Pick, until: number, flow: Flow): Promise<void> {
  const open = tasks.filter((t) => !isEnded(t));
  const lanes = Math.min(8, open.length);
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < open.length; i += lanes) await drive(open[i]!, pick, until, flow);
    }),
  );
}

/**
 * The final read of an acknowledged task, and what it counts: "Task not found" is a lost task;
 * with `mustComplete`, anything but its right result is a lost result (a task that failed
 * and ran across an outage, until its own lastUpdatedAt, is excused, except as worker-lost); without it (a task the process was killed
 * under), only a result read before and gone now is.
 */
export async function verdict(task: TrackedTask, target: { url: string; name: string }, flow: Flow, mustComplete: boolean): Promise<void> {
  const hadResult = task.resultSeen;
  const got = await get(task, target, flow);
  if (got === undefined) {
    if (mustComplete || hadResult) flow.tally.count("lostResults", `task ${task.id}: its final tasks/get on ${target.name} got no answer`);
    return;
  }
  if (got.error?.code === -32602) {
    flow.tally.count("lostTasks", `task ${task.id}, acknowledged by ${task.on}: ${target.name} answers ${JSON.stringify(got.error)}`);
    return;
  }
  if (got.result === undefined) return; // an error already counted (-32603)
  observe(task, got.result);
  const label = `task ${task.id} (acknowledged by ${task.on})`;
  if (hadResult && !task.resultSeen)
    return flow.tally.count(
      "lostResults",
      `${label}: its result was read before, now it reads ${JSON.stringify(got.result).slice(0, 200)}`,
    );
  if (!mustComplete || task.resultSeen) return;
  if (task.status === "completed")
    return flow.tally.count(
      "lostResults",
      `${label}: completed with a result other than its method's: ${JSON.stringify(task.result).slice(0, 200)}`,
    );
  if (task.status === "failed") {
    const reason = task.error?.data?.reason;
    // The failure itself may be written a while after the outage (the outcome is retried): the task's whole life counts.
    const failedAt = task.endedByServerAt ?? task.endedAt ?? Date.now();
    if (!flow.strict && reason !== "worker-lost" && flow.outages?.overlaps(task.ackAt, failedAt))
      return flow.tally.excuse(`task failed, running across an outage (${task.error?.message})`);
    return flow.tally.count("lostResults", `${label}: failed ${JSON.stringify(task.error)}`);
  }
  flow.tally.count("lostResults", `${label}: still ${task.status} at the settle deadline (${JSON.stringify(got.result).slice(0, 160)})`);
}

async function get(task: TrackedTask, target: { url: string; name: string }, flow: Flow): Promise<JsonRpcAnswer | undefined> {
  const outcome = await send(target.url, "tasks/get", { taskId: task.id }, flow.deadlineMs);
  return judge(flow.tally, outcome, { what: `tasks/get on ${target.name}`, storeBound: true, outages: flow.outages });
}

function observe(task: TrackedTask, read: ResultFields): void {
  task.status = read.status;
  task.resultSeen = read.status === "completed" && isRightResult(task, read.result);
  if (read.status === undefined || !TERMINAL.has(read.status)) return;
  task.endedAt ??= Date.now();
  task.endedByServerAt = Date.parse(read.lastUpdatedAt ?? "");
  task.result = read.result;
  task.error = read.error;
}

/** The report build_report writes for this task's topic and section count, with the appendix accepted. */
function isRightResult(task: TrackedTask, result: unknown): boolean {
  const report = (result as { structuredContent?: { topic?: unknown; sections?: unknown; appendix?: unknown } } | undefined)
    ?.structuredContent;
  return (
    report?.topic === task.topic && Array.isArray(report.sections) && report.sections.length === task.sections && report.appendix === true
  );
}
