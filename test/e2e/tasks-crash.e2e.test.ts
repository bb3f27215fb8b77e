// Pins recovery after a crash on the SQLite store, with real processes: a server is killed with
// SIGKILL (kill -9) while three tasks run, and a new server on the same file settles each of them
// once the dead one's leases lapse; none stays working:
// - a "rerun" tool runs again (attempt 2) with the same idempotency key and completes;
// - a "rerun" tool that was answered before the crash runs again without asking again (the
//   answer is kept) and completes with it;
// - a "fail" tool ends failed with -32603 and data.reason "worker-lost";
// - before the kill, the first server ran each task once, however loaded the machine (a process
//   held up past its leases renews its own before it looks for lapsed ones).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { call, eventually, startTaskServer, taskReaches, type TaskServer } from "../support/task-server";
import { taskEventsIn } from "./fixtures/task-events";

/** Two servers start one after the other: a safety net for a loaded machine, where each start takes seconds; every wait is for an event. */
const TEST_TIMEOUT_MS = 180_000;

let folder: string;
/** Servers started or starting: one still starting when a test ends is stopped once it is up. */
const servers: Promise<TaskServer>[] = [];

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-crash-"));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map(async (starting) => (await starting.catch(() => undefined))?.stop("SIGKILL")));
  rmSync(folder, { recursive: true, force: true });
});

function server(): Promise<TaskServer> {
  const starting = startTaskServer({
    TASK_STORE: `sqlite:${path.join(folder, "tasks.sqlite")}`,
    TASK_EVENTS: path.join(folder, "events.jsonl"),
    TASK_LEASE_MS: "600",
    TASK_RECOVERY_MS: "100",
  });
  servers.push(starting);
  return starting;
}

const events = () => taskEventsIn(path.join(folder, "events.jsonl"));
const eventOf = (what: string, taskId: string, pid: number) =>
  events().find((e) => e.event === what && e.taskId === taskId && e.pid === pid);

describe("a server killed with SIGKILL while tasks run (SQLite store)", () => {
  it(
    "leaves every task settled by the next server: re-run, re-run with its answer, or failed",
    async () => {
      const first = await server();
      const rerun = (await call(first.url, "tools/call", { name: "resumable", arguments: { holdFirstAttempt: true } })).result!
        .taskId as string;
      const answered = (await call(first.url, "tools/call", { name: "resumable_question", arguments: {} })).result!.taskId as string;
      const fail = (await call(first.url, "tools/call", { name: "fragile", arguments: {} })).result!.taskId as string;
      await taskReaches(first.url, answered, ["input_required"]);
      await call(first.url, "tasks/update", {
        taskId: answered,
        inputResponses: { approval: { action: "accept", content: { approve: true } } },
      });
      const started = await eventually("all three methods running", () => {
        const before = [
          eventOf("started", rerun, first.pid),
          eventOf("answered", answered, first.pid),
          eventOf("started", fail, first.pid),
        ];
        return before.every((e) => e !== undefined) ? before : undefined;
      });

      await first.stop("SIGKILL");
      // The first server ran each task once: it never took its own tasks for a lost worker's.
      expect(events().filter((e) => e.pid === first.pid && e.attempt !== 1)).toEqual([]);
      const second = await server();

      const reran = await taskReaches(second.url, rerun, ["completed", "failed", "cancelled"]);
      expect(reran).toMatchObject({
        status: "completed",
        result: { content: [{ type: "text", text: `done on attempt 2 with key ${started[0]!.idempotencyKey}` }] },
      });
      const resumed = await taskReaches(second.url, answered, ["completed", "failed", "cancelled"]);
      expect(resumed).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "attempt 2: true" }] } });
      const failed = await taskReaches(second.url, fail, ["completed", "failed", "cancelled"]);
      expect(failed).toMatchObject({
        status: "failed",
        error: {
          code: -32603,
          message: "The task's worker stopped before the task finished",
          data: { reason: "worker-lost", attempts: 1 },
        },
      });
      expect(failed).not.toHaveProperty("result");

      expect(eventOf("started", rerun, second.pid)).toMatchObject({ attempt: 2, idempotencyKey: started[0]!.idempotencyKey });
      expect(eventOf("answered", answered, second.pid)).toMatchObject({ attempt: 2 });
      expect(eventOf("started", fail, second.pid)).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );
});
