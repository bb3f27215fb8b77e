/*
 * Two app processes on one PostgreSQL database (run by `npm run test:postgres`), the task
 * fixture app served over HTTP by each:
 * - a task created on A is read on B; answered on B, the answer reaches the method running on A
 *   within a second (LISTEN/NOTIFY), and B reads the result A wrote;
 * - cancelled on B, the cancellation reaches the method running on A within a second, and the
 *   task stays cancelled;
 * - a task is scoped by principal on every instance: another principal gets -32602 on B;
 * - the same create sent to A and B at once with one idempotency key makes one task, and both
 *   answer it (the key's unique index and the principal's lock span the instances);
 * - A killed with SIGKILL mid-task: B takes the "rerun" task over once A's lease lapses and runs
 *   it again (attempt 2, same idempotency key), and fails the "fail" one (worker-lost).
 * Latencies (from sending the request to B until A's method saw it) are printed; the one-second
 * bound is the requirement for delivery across instances.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { taskEventsIn } from "../e2e/fixtures/task-events";
import { meta, rpc } from "../support/raw-http";
import { DECLARING, call, eventually, startTaskServer, taskReaches, type TaskServer } from "../support/task-server";
import { validateServerMessage } from "../support/wire-schema";
import { freshSchema, postgresUrl, sql } from "./postgres-database";

const schema = freshSchema();
let folder: string;
let a: TaskServer;
let b: TaskServer;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-two-"));
  const env = {
    TASK_STORE: postgresUrl(),
    TASK_STORE_SCHEMA: schema,
    TASK_EVENTS: path.join(folder, "events.jsonl"),
    TASK_LEASE_MS: "900",
    TASK_RECOVERY_MS: "100",
  };
  [a, b] = await Promise.all([startTaskServer(env), startTaskServer(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
  await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  rmSync(folder, { recursive: true, force: true });
});

const events = () => taskEventsIn(path.join(folder, "events.jsonl"));
const eventOf = (what: string, taskId: string, pid: number) =>
  events().find((e) => e.event === what && e.taskId === taskId && e.pid === pid);

describe("two app processes on one PostgreSQL database", () => {
  it("reads and answers on B a task running on A; the answer reaches A's worker within a second", async () => {
    const taskId = (await call(a.url, "tools/call", { name: "approve", arguments: { item: "order 12" } })).result!.taskId as string;
    expect((await call(b.url, "tasks/get", { taskId })).result!.taskId).toBe(taskId);
    await taskReaches(b.url, taskId, ["input_required"]);
    const sent = Date.now();
    const ack = await call(b.url, "tasks/update", {
      taskId,
      inputResponses: { approval: { action: "accept", content: { approve: true } } },
    });
    expect(ack.result!.resultType).toBe("complete");
    const reached = await eventually("the answer on A", () => eventOf("answered", taskId, a.pid));
    process.stdout.write(`tasks/update sent to B reached the worker on A in ${reached.at - sent} ms\n`);
    expect(reached.at - sent).toBeLessThan(1000);
    expect(await taskReaches(b.url, taskId, ["completed"])).toMatchObject({
      result: { content: [{ type: "text", text: "order 12: approved" }] },
    });
  });

  it("cancels on B a task running on A; the cancellation reaches A's worker within a second", async () => {
    const taskId = (await call(a.url, "tools/call", { name: "wait_for_cancel", arguments: {} })).result!.taskId as string;
    await eventually("the method running on A", () => eventOf("waiting", taskId, a.pid));
    const sent = Date.now();
    expect((await call(b.url, "tasks/cancel", { taskId })).result!.resultType).toBe("complete");
    const reached = await eventually("the cancellation on A", () => eventOf("cancel-observed", taskId, a.pid));
    process.stdout.write(`tasks/cancel sent to B reached the worker on A in ${reached.at - sent} ms\n`);
    expect(reached.at - sent).toBeLessThan(1000);
    expect((await call(a.url, "tasks/get", { taskId })).result!.status).toBe("cancelled");
  });

  it("scopes tasks by principal on every instance", async () => {
    const taskId = (await call(a.url, "tools/call", { name: "count", arguments: { to: 1 } }, "alice")).result!.taskId as string;
    expect((await call(b.url, "tasks/get", { taskId }, "alice")).result!.taskId).toBe(taskId);
    expect((await call(b.url, "tasks/get", { taskId }, "mallory")).error).toEqual({ code: -32602, message: "Task not found" });
  });

  it("makes one task of the same create sent to A and B at once with one idempotency key", async () => {
    for (let round = 0; round < 3; round++) {
      const params = {
        name: "count",
        arguments: { to: 1 },
        _meta: { ...meta(DECLARING), "roundtrip-mcp/idempotencyKey": `two-instances-${round}` },
      };
      const answers = await Promise.all(
        [a, b, a, b].map(
          async (server) => (await rpc(server.url, "tools/call", params, { headers: { "x-test-principal": "alice" } })).body,
        ),
      );
      for (const answer of answers) validateServerMessage(answer, "tools/call");
      const ids = new Set(answers.map((answer) => (answer as { result: { taskId: string } }).result.taskId));
      expect(ids.size).toBe(1);
      const [taskId] = [...ids];
      expect(
        await sql(`SELECT count(*)::int AS n FROM ${schema}.roundtrip_tasks WHERE creation_key = $1`, [
          JSON.stringify(["alice", `two-instances-${round}`]),
        ]),
      ).toEqual([{ n: 1 }]);
      expect((await taskReaches(b.url, taskId!, ["completed"], "alice")).status).toBe("completed");
    }
  });

  it("recovers on B what A was running when it was killed", async () => {
    const rerun = (await call(a.url, "tools/call", { name: "resumable", arguments: { holdFirstAttempt: true } })).result!.taskId as string;
    const fail = (await call(a.url, "tools/call", { name: "fragile", arguments: {} })).result!.taskId as string;
    const first = await eventually("both methods running on A", () =>
      eventOf("started", rerun, a.pid) && eventOf("started", fail, a.pid) ? eventOf("started", rerun, a.pid) : undefined,
    );
    await a.stop("SIGKILL");
    expect(await taskReaches(b.url, rerun, ["completed", "failed"])).toMatchObject({
      status: "completed",
      result: { content: [{ text: `done on attempt 2 with key ${first.idempotencyKey}` }] },
    });
    expect(eventOf("started", rerun, b.pid)).toMatchObject({ attempt: 2 });
    expect(await taskReaches(b.url, fail, ["completed", "failed"])).toMatchObject({
      status: "failed",
      error: { data: { reason: "worker-lost" } },
    });
  });
});
