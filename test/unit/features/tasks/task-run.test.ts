// Pins one attempt at one task (TaskRun) on the memory store, with a stand-in invocation:
// - the method gets a TaskContext: the task's id, attempt and idempotency key, the creating
//   request's capabilities, params { name, arguments }, a log that sends nothing;
// - a result completes the task with finish()'s shape; an McpError fails it with that error; a
//   crash or input_required fails it with -32603 "Internal error" and an error id, the details
//   in the app logger only; a finish() that throws an McpError fails it with that error; an error
//   whose data JSON cannot hold fails it as a crash; a store briefly unavailable for the outcome
//   is tried again (pending-outcomes.test.ts pins how);
// - progress and status: coalesced (a tight loop of reports costs far fewer writes), the last
//   message wins;
// - ask: input_required with the requests and the status message, partial answers keep it
//   waiting, the last answer resolves with every answer; a key asked twice in one run is a
//   TypeError, a request the client's capabilities do not allow is -32021 naming what is missing;
//   a URL question is stored with an elicitationId of the task and its key;
// - a re-run (attempt 2) asks nothing again: answered keys resolve from the stored answers,
//   outstanding ones are waited for;
// - cancel (through the watch), a takeover by another claim (at the next renewal: a claim is
//   lease bookkeeping, which watchers are not told of) and expiry abort the signal with their
//   reason, and the method's late result is never written;
// - the lease is renewed every third of leaseMs while the method runs, and from the start of the
//   attempt: a watch slow to set up does not let it lapse;
// - shutdown hands a "rerun" task over (claimable at once) and fails a "fail" one.
import { elicitationIdOf } from "../../../../src/elicitation/elicitation-id";
import { ErrorCode, McpError, Elicitation, Sampling, type JsonObject } from "../../../../src/index";
import type { ComponentDefinition } from "../../../../src/features/component-definition";
import type { Invocation } from "../../../../src/features/component-runner";
import type { TaskContext } from "../../../../src/features/tasks/task-context";
import { TaskRun } from "../../../../src/features/tasks/task-run";
import type { TaskTool } from "../../../../src/features/tasks/task-tool";
import { MemoryTaskStore, TaskStoreUnavailableError, type TaskRecord, type ClaimedTask } from "../../../../src/stores";
import { MemoryLogger } from "../../../../src/testing/index";

const ASK_NAME = Elicitation.form("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
const ASK_OK = Elicitation.form("Go?", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
const CAPABILITIES = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

let now: number;
let store: MemoryTaskStore;
let logger: MemoryLogger;
const runs: TaskRun[] = [];

beforeEach(() => {
  now = Date.UTC(2026, 7, 1);
  store = new MemoryTaskStore({ clock: () => now });
  logger = new MemoryLogger();
});
afterEach(async () => {
  for (const run of runs.splice(0)) run.close();
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

async function created(retryPolicy: "fail" | "rerun" = "fail", leaseMs = 10_000): Promise<ClaimedTask> {
  return store.create({
    principal: "ada",
    toolName: "job",
    input: {},
    ttlMs: 60_000,
    retryPolicy,
    lease: { owner: "here", durationMs: leaseMs },
  });
}

async function started(claimed: ClaimedTask, options: { retryPolicy?: "fail" | "rerun"; leaseMs?: number } = {}): Promise<TaskRun> {
  const run = new TaskRun(
    store,
    claimed,
    tool(options.retryPolicy),
    { arguments: { n: 1 }, answers: {}, capabilities: CAPABILITIES },
    options.leaseMs ?? 10_000,
    logger,
  );
  runs.push(run);
  await run.begin();
  return run;
}

/** A stand-in invocation: `method` is what the tool does; finish shapes like a tool's text result. */
function invocation(method: (ctx: TaskContext) => unknown, finish?: (value: unknown) => Promise<JsonObject>): Invocation {
  return {
    component: {} as ComponentDefinition,
    ctx: {} as TaskContext,
    clientCapabilities: CAPABILITIES,
    recorded: { arguments: { n: 1 }, answers: {} },
    run: async (ctx) => method(ctx as TaskContext),
    finish: finish ?? (async (value) => ({ resultType: "complete", content: [{ type: "text", text: String(value) }] })),
  };
}

async function read(id: string): Promise<TaskRecord> {
  return (await store.get(id, "ada"))!;
}

/** Resolves once `check` holds for the task, as its watch reports it. */
async function reaches(id: string, check: (task: TaskRecord) => boolean): Promise<TaskRecord> {
  return new Promise((resolve) => {
    const watch = store.watch(id, "ada", (task) => {
      if (task && check(task)) void watch.then((w) => (w.close(), resolve(task)));
    });
  });
}

/** A promise and its resolver, to hold a method until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("TaskRun", () => {
  it("gives the method its task context and completes the task with the shaped result", async () => {
    const claimed = await created();
    const run = await started(claimed);
    let seen!: TaskContext;
    await run.execute(invocation((ctx) => ((seen = ctx), "done")));
    expect(seen).toMatchObject({
      taskId: claimed.task.id,
      attempt: 1,
      idempotencyKey: claimed.task.idempotencyKey,
      principal: "ada",
      requestMethod: "tools/call",
      clientCapabilities: CAPABILITIES,
    });
    expect(seen.requestParams).toEqual({ name: "job", arguments: { n: 1 } });
    expect(seen.log.level).toBeUndefined();
    expect(await read(claimed.task.id)).toMatchObject({
      status: "completed",
      result: { resultType: "complete", content: [{ type: "text", text: "done" }] },
    });
  });

  it("fails with a typed error as it is, and with a generic one for a crash, whose details only the logger sees", async () => {
    const typed = await created();
    await (await started(typed)).execute(invocation(() => Promise.reject(new McpError(-33001, "Quota exceeded", { retryAfterMs: 5 }))));
    expect(await read(typed.task.id)).toMatchObject({
      status: "failed",
      error: { code: -33001, message: "Quota exceeded", data: { retryAfterMs: 5 } },
    });

    const crash = await created();
    await (await started(crash)).execute(invocation(() => Promise.reject(new Error("password=hunter2"))));
    const failed = await read(crash.task.id);
    expect(failed).toMatchObject({
      status: "failed",
      error: { code: ErrorCode.InternalError, message: "Internal error", data: { errorId: expect.any(String) } },
    });
    expect(failed.result).toBeUndefined();
    const logged = logger.entries.find((e) => e.message === "task failed")!;
    expect(logged.fields).toMatchObject({
      taskId: crash.task.id,
      errorId: (failed.error!.data as JsonObject).errorId,
      error: "password=hunter2",
    });

    const mrtr = await created();
    await (await started(mrtr)).execute(invocation(() => ({ resultType: "input_required", inputRequests: {} })));
    expect((await read(mrtr.task.id)).error).toMatchObject({ code: ErrorCode.InternalError, message: "Internal error" });

    const shaping = await created();
    await (
      await started(shaping)
    ).execute(
      invocation(
        () => "x",
        async () => Promise.reject(new McpError(ErrorCode.InternalError, "Internal error")),
      ),
    );
    expect((await read(shaping.task.id)).error).toEqual({ code: ErrorCode.InternalError, message: "Internal error" });
  });

  it("writes an outcome JSON cannot hold as a crash, and retries an outcome the store could not take", async () => {
    const unjson = await created();
    await (await started(unjson)).execute(invocation(() => Promise.reject(new McpError(-33002, "Odd", { n: BigInt(1) }))));
    expect((await read(unjson.task.id)).error).toMatchObject({ code: -32603, message: "Internal error" });

    const flaky = await created();
    const run = await started(flaky);
    const real = store.complete.bind(store);
    jest
      .spyOn(store, "complete")
      .mockRejectedValueOnce(new TaskStoreUnavailableError("The SQLite task store is unavailable (SQLITE_BUSY)"))
      .mockImplementation(real);
    await run.execute(invocation(() => "eventually"));
    expect(await reaches(flaky.task.id, (task) => task.status === "completed")).toMatchObject({
      result: { content: [{ text: "eventually" }] },
    });
  });

  it("coalesces progress writes and keeps the last message", async () => {
    const claimed = await created();
    const run = await started(claimed);
    const writes = jest.spyOn(store, "reportProgress");
    await run.execute(
      invocation(async (ctx) => {
        const reports = [];
        for (let i = 1; i <= 200; i++) reports.push(ctx.progress.report(i, 200, `step ${i}`));
        await Promise.all(reports);
        await ctx.setStatus("wrapping up");
        return "ok";
      }),
    );
    expect(writes.mock.calls.length).toBeLessThan(10);
    expect(writes.mock.calls.at(-1)![2]).toEqual({ statusMessage: "wrapping up" });
    expect((await read(claimed.task.id)).progress).toEqual({ progress: 200, total: 200 });
  });

  it("asks through the task, waits through partial answers, and resolves with every answer", async () => {
    const claimed = await created();
    const run = await started(claimed);
    const done = run.execute(
      invocation(async (ctx) => {
        const answers = await ctx.ask({ name: ASK_NAME, ok: ASK_OK }, { statusMessage: "Two questions" });
        const name = Elicitation.response(answers, "name", ASK_NAME);
        return name.status === "answered" && name.action === "accept" ? `hi ${String(name.content.name)}` : "none";
      }),
    );
    const asking = await reaches(claimed.task.id, (t) => t.status === "input_required");
    expect(asking.statusMessage).toBe("Two questions");
    expect(Object.keys(asking.inputRequests).sort()).toEqual(["name", "ok"]);
    await store.recordAnswers(claimed.task.id, "ada", { name: { action: "accept", content: { name: "Ada" } } });
    expect((await read(claimed.task.id)).status).toBe("input_required");
    await store.recordAnswers(claimed.task.id, "ada", { ok: { action: "accept", content: { ok: true } } });
    await done;
    expect((await read(claimed.task.id)).result).toMatchObject({ content: [{ text: "hi Ada" }] });
  });

  it("refuses a key asked twice in one run, and a request the client cannot receive (-32021)", async () => {
    const run = await started(await created());
    await expect(run.ctx.ask({})).rejects.toThrow(TypeError);
    const sample = Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 });
    await expect(run.ctx.ask({ s: sample })).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    const first = run.ctx.ask({ name: ASK_NAME });
    await expect(run.ctx.ask({ name: ASK_NAME })).rejects.toThrow(/already asked in this task/);
    run.close();
    await expect(first).rejects.toThrow("The task already ended");
  });

  it("asks a URL question with an elicitationId of the task and its key, and names what is missing in a -32021", async () => {
    const claimed = await created();
    const run = await started(claimed);
    const connect = Elicitation.url("Connect", "https://example.com/connect");
    // This task's client declared form elicitation only: the message says so (clients drop data).
    await expect(run.ctx.ask({ connect })).rejects.toMatchObject({
      code: -32021,
      message: expect.stringContaining("Missing required client capability: elicitation.url. This request did not declare it"),
    });
    const asked = reaches(claimed.task.id, (task) => task.status === "input_required");
    const pending = run.ctx.ask({ name: ASK_NAME });
    const requests = (await asked).inputRequests as Record<string, { params: Record<string, unknown> }>;
    expect(requests.name!.params).not.toHaveProperty("elicitationId");
    run.close();
    await expect(pending).rejects.toThrow("The task already ended");
    // A client that declared URL mode: the stored question carries the id.
    const urlClaimed = await created();
    const urlRun = new TaskRun(
      store,
      urlClaimed,
      tool(),
      { arguments: { n: 1 }, answers: {}, capabilities: { ...CAPABILITIES, elicitation: { form: {}, url: {} } } },
      10_000,
      logger,
    );
    runs.push(urlRun);
    await urlRun.begin();
    const urlAsked = reaches(urlClaimed.task.id, (task) => task.status === "input_required");
    const waiting = urlRun.ctx.ask({ connect });
    const stored = (await urlAsked).inputRequests as Record<string, { params: Record<string, unknown> }>;
    expect(stored.connect!.params).toEqual({ ...connect.params, elicitationId: elicitationIdOf(urlClaimed.task.id, "connect") });
    urlRun.close();
    await expect(waiting).rejects.toThrow("The task already ended");
  });

  it("on a re-run, takes answered keys from the task and waits for outstanding ones without asking again", async () => {
    const first = await created("rerun", 1000);
    await store.requestInput(first.task.id, first.lease, { name: ASK_NAME as never, ok: ASK_OK as never });
    await store.recordAnswers(first.task.id, "ada", { name: { action: "accept", content: { name: "Ada" } } });
    now += 2000; // the first worker's lease lapsed
    const second = (await store.claim(first.task.id, "there", 10_000))!;
    expect(second.task.attempt).toBe(2);
    const run = await started(second, { retryPolicy: "rerun" });
    const asks = jest.spyOn(store, "requestInput");
    const answered = run.ctx.ask({ name: ASK_NAME, ok: ASK_OK });
    await store.recordAnswers(first.task.id, "ada", { ok: { action: "accept", content: { ok: false } } });
    expect((await answered).inputResponses).toEqual({
      name: { action: "accept", content: { name: "Ada" } },
      ok: { action: "accept", content: { ok: false } },
    });
    expect(asks).not.toHaveBeenCalled();
    expect(run.ctx.idempotencyKey).toBe(first.task.idempotencyKey);
  });

  it.each([
    ["cancelled", "The task was cancelled", (id: string) => store.cancel(id, "ada")],
    ["taken over", "Another instance took the task over", async (id: string) => ((now += 20_000), store.claim(id, "there", 10_000))],
    ["expired", "The task expired", async () => ((now += 120_000), store.reapExpired())],
  ])("when %s, aborts the signal and never writes the late result", async (_what, reason, act) => {
    const claimed = await created("rerun");
    const run = await started(claimed, { retryPolicy: "rerun", leaseMs: 60 });
    const held = gate();
    const completes = jest.spyOn(store, "complete");
    let aborted: unknown;
    const done = run.execute(
      invocation(async (ctx) => {
        ctx.signal.addEventListener("abort", () => ((aborted = ctx.signal.reason), held.open()));
        await held.promise;
        return "late";
      }),
    );
    await act(claimed.task.id);
    await done;
    expect((aborted as Error).message).toBe(reason);
    expect(completes).not.toHaveBeenCalled();
  });

  it("renews its lease every third of leaseMs while the method runs", async () => {
    const run = await started(await created("fail", 30), { leaseMs: 30 });
    const renewals = jest.spyOn(store, "renewLease");
    const held = gate();
    const done = run.execute(invocation(() => held.promise.then(() => "ok")));
    while (renewals.mock.calls.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    held.open();
    await done;
    expect(renewals.mock.calls[0]![2]).toBe(30);
  });

  it("renews its lease from the start of the attempt, while its watch is still being set up", async () => {
    // The store's clock is the (fake) Date: a lease lapses as the fake time passes.
    jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] });
    try {
      store = new MemoryTaskStore();
      const claimed = await created("rerun", 30);
      const watched = gate();
      const watch = store.watch.bind(store);
      jest.spyOn(store, "watch").mockImplementation(async (...args) => (await watched.promise, watch(...args)));
      const renewals = jest.spyOn(store, "renewLease");
      const run = new TaskRun(store, claimed, tool("rerun"), { arguments: {}, answers: {}, capabilities: CAPABILITIES }, 30, logger);
      runs.push(run);
      const beginning = run.begin();
      // Two leases' time while the watch is held back (a cold process, a store slow to answer).
      await jest.advanceTimersByTimeAsync(60);
      expect(renewals).toHaveBeenCalledTimes(6);
      // The lease never lapsed: another instance cannot claim the task.
      expect(await store.claim(claimed.task.id, "other", 30)).toBeUndefined();
      watched.open();
      await beginning;
      expect(run.stopped).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it("hands a rerun task over on shutdown, and fails a fail task with the shutdown error", async () => {
    const rerun = await created("rerun");
    const handed = await started(rerun, { retryPolicy: "rerun" });
    void handed.execute(invocation((ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late")))));
    await handed.shutdown();
    expect((await store.claim(rerun.task.id, "there", 1000))?.task.attempt).toBe(2);

    const fail = await created("fail");
    const failing = await started(fail);
    void failing.execute(invocation((ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late")))));
    await failing.shutdown();
    expect((await read(fail.task.id)).error).toEqual({
      code: -32603,
      message: "The server shut down before the task finished",
      data: { reason: "shutdown" },
    });
  });
});
