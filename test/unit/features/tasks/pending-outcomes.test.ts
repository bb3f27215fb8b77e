// Pins what happens to a finished outcome the store cannot take when the method ends (TaskRun with
// PendingOutcomes, on the memory store, with a store whose complete() fails on demand):
// - it is kept in memory and written again with backoff until the store takes it, however many
//   tries that needs (the old code gave up after four), and the log says it was kept, then written;
// - it is dropped, and never written, once the task moved on without it: cancelled meanwhile, or
//   taken over by another claim after its lease lapsed; the log says so;
// - the buffer is bounded by count and by bytes: an outcome beyond either is not kept, and the log
//   says the task is left to recovery; one outcome per task (a later attempt's supersedes);
// - close() makes one last try for each, and logs each one it drops;
// - the runtime's recovery pass writes kept outcomes before failAbandoned, so a task whose result
//   this instance holds is never failed as worker-lost once its lease lapsed;
// - the bounds are tasks() options, checked when the app is built.
import { RegistrationError, tasks } from "../../../../src/index";
import type { ComponentDefinition } from "../../../../src/features/component-definition";
import type { Invocation } from "../../../../src/features/component-runner";
import { PendingOutcomes, type PendingOutcomeLimits } from "../../../../src/features/tasks/pending-outcomes";
import type { TaskContext } from "../../../../src/features/tasks/task-context";
import { TaskRun } from "../../../../src/features/tasks/task-run";
import { TaskRuntime } from "../../../../src/features/tasks/task-runtime";
import { tasksSettings } from "../../../../src/features/tasks/tasks-options";
import type { ComponentRunner } from "../../../../src/features/component-runner";
import type { TaskTool } from "../../../../src/features/tasks/task-tool";
import { MemoryTaskStore, TaskStoreUnavailableError, type ClaimedTask, type TaskRecord } from "../../../../src/stores";
import { MemoryLogger } from "../../../../src/testing/index";

const CAPABILITIES = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
const LEASE_MS = 10_000;

let now: number;
let store: MemoryTaskStore;
let logger: MemoryLogger;
let down: boolean;
let refusals: number;
const runs: TaskRun[] = [];

beforeEach(() => {
  now = Date.UTC(2026, 7, 1);
  store = new MemoryTaskStore({ clock: () => now });
  logger = new MemoryLogger();
  down = true;
  refusals = 0;
  const real = store.complete.bind(store);
  // The store cannot take a result while `down`; everything else works.
  jest.spyOn(store, "complete").mockImplementation(async (...args) => {
    if (down) {
      refusals++;
      throw new TaskStoreUnavailableError("The SQLite task store is unavailable (SQLITE_READONLY)");
    }
    return real(...args);
  });
});
afterEach(async () => {
  for (const run of runs.splice(0)) run.close();
  jest.restoreAllMocks();
  await store.close();
});

function tool(retryPolicy: "fail" | "rerun" = "fail"): TaskTool {
  return {
    component: {} as ComponentDefinition,
    name: "job",
    support: "optional",
    ttlMs: 60_000,
    pollIntervalMs: 100,
    retryPolicy,
    maxAttempts: retryPolicy === "rerun" ? 3 : 1,
  };
}

function outcomes(limits: Partial<PendingOutcomeLimits> = {}): PendingOutcomes {
  return new PendingOutcomes({ maxOutcomes: 100, maxBytes: 1_000_000, ...limits }, logger, { firstMs: 1, maxMs: 4 });
}

/** Runs a task whose method returns `value`, with `kept` as its outcome buffer; resolves once execute() returned. */
async function finished(
  kept: PendingOutcomes,
  value: unknown = "the result",
  retryPolicy: "fail" | "rerun" = "fail",
): Promise<ClaimedTask> {
  const claimed = await store.create({
    principal: "ada",
    toolName: "job",
    input: {},
    ttlMs: 60_000,
    retryPolicy,
    lease: { owner: "here", durationMs: LEASE_MS },
  });
  const run = new TaskRun(
    store,
    claimed,
    tool(retryPolicy),
    { arguments: {}, answers: {}, capabilities: CAPABILITIES },
    LEASE_MS,
    logger,
    kept,
  );
  runs.push(run);
  await run.begin();
  const invocation: Invocation = {
    component: {} as ComponentDefinition,
    ctx: {} as TaskContext,
    clientCapabilities: CAPABILITIES,
    recorded: { arguments: {}, answers: {} },
    run: async () => value,
    finish: async (v) => ({ resultType: "complete", content: [{ type: "text", text: String(v) }] }),
  };
  await run.execute(invocation);
  run.close();
  return claimed;
}

function reaches(id: string, check: (task: TaskRecord) => boolean): Promise<TaskRecord> {
  return new Promise((resolve) => {
    const watch = store.watch(id, "ada", (task) => {
      if (task && check(task)) void watch.then((w) => (w.close(), resolve(task)));
    });
  });
}

/** Resolves once the store has refused the result `n` times in all. */
function refused(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (refusals >= n ? resolve() : setImmediate(check));
    check();
  });
}

const messages = () => logger.entries.map((e) => e.message);

describe("an outcome the store cannot take", () => {
  it("is kept and written again with backoff until the store takes it, however many tries that needs", async () => {
    const kept = outcomes();
    const { task } = await finished(kept);
    expect(kept.size).toBe(1);
    expect((await store.get(task.id, "ada"))!.status).toBe("working");
    await refused(20);
    down = false;
    const done = await reaches(task.id, (t) => t.status === "completed");
    expect(done.result).toMatchObject({ content: [{ text: "the result" }] });
    await kept.flush(); // the write that landed is still settling its bookkeeping
    expect(kept.size).toBe(0);
    expect(kept.heldBytes).toBe(0);
    expect(messages()).toContain("task outcome could not be written; kept in memory and retried until the store takes it");
    const written = logger.entries.find((e) => e.message === "task outcome kept in memory was written")!;
    expect(written.fields).toMatchObject({ taskId: task.id });
    expect(written.fields!.tries as number).toBeGreaterThan(20);
  });

  it("is dropped, never written, once the task was cancelled meanwhile", async () => {
    const kept = outcomes();
    const { task } = await finished(kept);
    await store.cancel(task.id, "ada");
    down = false;
    await kept.flush();
    expect(kept.size).toBe(0);
    const after = (await store.get(task.id, "ada"))!;
    expect(after.status).toBe("cancelled");
    expect(after.result).toBeUndefined();
    expect(
      logger.entries.find((e) => e.message === "task outcome kept in memory was dropped: the task moved on without it")!.fields,
    ).toMatchObject({ taskId: task.id });
  });

  it("is dropped once another claim took the task over after its lease lapsed", async () => {
    const kept = outcomes();
    const { task } = await finished(kept, "first attempt", "rerun");
    now += LEASE_MS;
    const other = (await store.claim(task.id, "elsewhere", LEASE_MS))!;
    expect(other.task.attempt).toBe(2);
    down = false;
    await kept.flush();
    expect(kept.size).toBe(0);
    expect((await store.get(task.id, "ada"))!).toMatchObject({ status: "working", attempt: 2 });
    expect(messages()).toContain("task outcome kept in memory was dropped: the task moved on without it");
  });

  it("is not kept beyond the bounds (count, then bytes), and the log says recovery takes over", async () => {
    const byCount = outcomes({ maxOutcomes: 1 });
    await finished(byCount);
    const second = await finished(byCount);
    expect(byCount.size).toBe(1);
    const refusedEntry = logger.entries.find((e) => e.message.startsWith("task outcome could not be written and is not kept"))!;
    expect(refusedEntry.fields).toMatchObject({ taskId: second.task.id, maxOutcomes: 1, kept: 1 });

    const byBytes = outcomes({ maxBytes: 200 });
    await finished(byBytes, "small");
    expect(byBytes.size).toBe(1);
    await finished(byBytes, "x".repeat(200));
    expect(byBytes.size).toBe(1);
    expect(byBytes.heldBytes).toBeLessThanOrEqual(200);
    await byCount.close();
    await byBytes.close();
  });

  it("keeps one outcome per task: a later attempt's supersedes an earlier one's, and the bytes follow", async () => {
    const kept = outcomes();
    const write = () => Promise.reject(new TaskStoreUnavailableError("down"));
    expect(kept.hold("t1", 100, write, "down")).toBe(true);
    expect(kept.hold("t1", 30, write, "down")).toBe(true);
    expect(kept.size).toBe(1);
    expect(kept.heldBytes).toBe(30);
    await kept.close();
    expect(kept.heldBytes).toBe(0);
  });

  it("gets one last try at close, and each one still refused is logged as dropped", async () => {
    const kept = outcomes();
    const { task } = await finished(kept);
    const tries = refusals;
    await kept.close();
    expect(refusals).toBeGreaterThan(tries);
    expect(kept.size).toBe(0);
    expect(logger.entries.find((e) => e.message.startsWith("task outcome dropped at shutdown"))!.fields).toMatchObject({ taskId: task.id });
    expect((await store.get(task.id, "ada"))!.status).toBe("working");
  });
});

describe("the runtime's recovery pass", () => {
  it("writes a kept result before it fails lapsed tasks, so the result wins over worker-lost", async () => {
    const runtime = new TaskRuntime(tasksSettings({ store, recoveryIntervalMs: 60_000 }), [], logger);
    const { task } = await finished(runtime.outcomes);
    expect(runtime.outcomes.size).toBe(1);
    now += LEASE_MS; // the lease lapsed while the store was down: failAbandoned would take it
    down = false;
    const ended = reaches(task.id, (t) => t.status !== "working");
    runtime.start({} as ComponentRunner);
    expect(await ended).toMatchObject({ status: "completed", result: { content: [{ text: "the result" }] } });
    await runtime.close();
  });
});

describe("tasks({ pendingOutcomes })", () => {
  it.each([[{ maxOutcomes: 0 }], [{ maxBytes: 1.5 }]])("refuses %j", (pendingOutcomes) => {
    expect(() => tasks({ pendingOutcomes })).toThrow(RegistrationError);
    expect(() => tasks({ pendingOutcomes })).toThrow(/pendingOutcomes\.max/);
  });
});
