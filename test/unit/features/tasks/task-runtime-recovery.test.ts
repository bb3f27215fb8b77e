// Pins what a recovery pass of TaskRuntime does with the tasks its own instance runs, on the memory
// store with fake timers (the store's clock is the fake Date): when the process was held up past
// its leases (a frozen or CPU-starved process: the clock moved on and no timer fired), the pass
// that runs first renews this instance's own overdue leases before it looks for lapsed ones, so
// - a "fail" task it is running is not failed as worker-lost, and its method keeps running;
// - a "rerun" task it is running is not claimed again (attempt 2) beside its running attempt 1;
// - a task whose worker really is gone (no run here) is still recovered by the same pass.
import type { ComponentDefinition } from "../../../../src/features/component-definition";
import type { ComponentRunner, Invocation } from "../../../../src/features/component-runner";
import type { TaskContext } from "../../../../src/features/tasks/task-context";
import type { TaskTool } from "../../../../src/features/tasks/task-tool";
import { TaskRuntime } from "../../../../src/features/tasks/task-runtime";
import { tasksSettings } from "../../../../src/features/tasks/tasks-options";
import type { RequestContext } from "../../../../src/protocol/request-context";
import { MemoryTaskStore } from "../../../../src/stores";
import { MemoryLogger } from "../../../../src/testing/index";

const CAPABILITIES = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const LEASE_MS = 3000;
const RECOVERY_MS = 500;

function tool(name: string, retryPolicy: "fail" | "rerun"): TaskTool {
  return {
    component: {} as ComponentDefinition,
    name,
    support: "optional",
    ttlMs: 600_000,
    pollIntervalMs: 100,
    retryPolicy,
    maxAttempts: retryPolicy === "rerun" ? 3 : 1,
  };
}

function invocation(name: string, run: (ctx: TaskContext) => Promise<unknown>): Invocation {
  return {
    component: {} as ComponentDefinition,
    ctx: { protocolVersion: "2026-07-28", requestParams: { name, arguments: {} }, principal: "ada" } as unknown as RequestContext,
    clientCapabilities: CAPABILITIES,
    recorded: { arguments: {}, answers: {} },
    run: (ctx) => run(ctx as TaskContext),
    finish: async (v) => ({ resultType: "complete", content: [{ type: "text", text: String(v) }] }),
  };
}

beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] }));
afterEach(() => jest.useRealTimers());

it("renews its own overdue leases before it recovers lapsed ones, so a held-up process keeps its running tasks", async () => {
  const store = new MemoryTaskStore();
  const fragile = tool("fragile", "fail");
  const resumable = tool("resumable", "rerun");
  const runtime = new TaskRuntime(
    tasksSettings({ store, leaseMs: LEASE_MS, recoveryIntervalMs: RECOVERY_MS }),
    [fragile, resumable],
    new MemoryLogger(),
  );
  runtime.start({} as ComponentRunner);
  const signals: AbortSignal[] = [];
  // Methods that run until stopped.
  const holds = (ctx: TaskContext) =>
    new Promise<unknown>((resolve) => (signals.push(ctx.signal), ctx.signal.addEventListener("abort", resolve)));
  const ids: string[] = [];
  for (const [component, name] of [
    [fragile, "fragile"],
    [resumable, "resumable"],
  ] as const) {
    const answer = await runtime.execute(component, invocation(name, holds));
    if (answer.kind !== "handover") throw new Error(`expected a task, got ${answer.kind}`);
    ids.push(String(answer.result.taskId));
  }
  // A task whose worker is gone: another instance's, its lease lapsing with the others.
  const lost = await store.create({
    principal: "ada",
    toolName: "fragile",
    input: {},
    ttlMs: 600_000,
    retryPolicy: "fail",
    lease: { owner: "gone", durationMs: LEASE_MS },
  });
  await jest.advanceTimersByTimeAsync(0);
  expect(signals).toHaveLength(2);

  // Held up for two leases: the clock moves on, no timer fires; then the recovery pass is the first timer due.
  jest.setSystemTime(Date.now() + 2 * LEASE_MS);
  await jest.advanceTimersByTimeAsync(RECOVERY_MS);

  for (const id of ids) expect(await store.get(id, "ada")).toMatchObject({ status: "working", attempt: 1 });
  expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
  expect(await store.get(lost.task.id, "ada")).toMatchObject({ status: "failed", error: { data: { reason: "worker-lost" } } });

  await runtime.close();
  await store.close();
});
