// Pins what TaskRuntime.close() does with a task whose creation is still under way when the server
// drains (on the memory store, whose create() is held back on demand):
// - close() waits for the create: the task it makes is launched and then handed over at once (a
//   "rerun" task's lease is released, so another instance claims it without waiting for the lease
//   to lapse), never launched after close() returned;
// - the call that created it still gets its CreateTaskResult;
// - a call that reaches execute() after close() began is refused with a generic internal error.
import type { ComponentDefinition } from "../../../../src/features/component-definition";
import type { ComponentRunner, Invocation } from "../../../../src/features/component-runner";
import type { TaskTool } from "../../../../src/features/tasks/task-tool";
import { TaskRuntime } from "../../../../src/features/tasks/task-runtime";
import { tasksSettings } from "../../../../src/features/tasks/tasks-options";
import type { RequestContext } from "../../../../src/protocol/request-context";
import { MemoryTaskStore } from "../../../../src/stores";
import { MemoryLogger } from "../../../../src/testing/index";

const CAPABILITIES = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const LEASE_MS = 60_000;

const tool: TaskTool = {
  component: {} as ComponentDefinition,
  name: "job",
  support: "optional",
  ttlMs: 600_000,
  pollIntervalMs: 100,
  retryPolicy: "rerun",
  maxAttempts: 3,
};

function invocation(run: () => Promise<unknown>): Invocation {
  return {
    component: {} as ComponentDefinition,
    ctx: { protocolVersion: "2026-07-28", requestParams: { name: "job", arguments: {} }, principal: "ada" } as unknown as RequestContext,
    clientCapabilities: CAPABILITIES,
    recorded: { arguments: {}, answers: {} },
    run,
    finish: async (v) => ({ resultType: "complete", content: [{ type: "text", text: String(v) }] }),
  };
}

it("waits for a create under way, then hands the task it made over", async () => {
  const store = new MemoryTaskStore();
  const real = store.create.bind(store);
  let letCreate!: () => void;
  const held = new Promise<void>((resolve) => (letCreate = resolve));
  jest.spyOn(store, "create").mockImplementation(async (input) => {
    await held;
    return real(input);
  });
  const runtime = new TaskRuntime(tasksSettings({ store, leaseMs: LEASE_MS, recoveryIntervalMs: 600_000 }), [tool], new MemoryLogger());
  runtime.start({} as ComponentRunner);
  // The method never ends by itself: only a hand-over stops it.
  const call = runtime.execute(
    tool,
    invocation(() => new Promise(() => undefined)),
  );
  await new Promise((resolve) => setImmediate(resolve));
  let closed = false;
  const closing = runtime.close().then(() => (closed = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(closed).toBe(false); // the create is still held back, and close() waits for it
  letCreate();
  const answer = await call;
  await closing;
  if (answer.kind !== "handover") throw new Error(`expected a handover, got ${answer.kind}`);
  const taskId = String(answer.result.taskId);
  expect((await store.get(taskId, "ada"))!.status).toBe("working");
  // Released: another instance claims it at once, long before the 60 s lease would lapse.
  expect((await store.claim(taskId, "other", LEASE_MS))?.task.id).toBe(taskId);
  await expect(
    runtime.execute(
      tool,
      invocation(async () => "late"),
    ),
  ).rejects.toMatchObject({ code: -32603 });
  await store.close();
});
