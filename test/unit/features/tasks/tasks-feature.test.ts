// Pins the tasks feature as an app sees it, in-process:
// - tasks() options and @Tool({ task }) values are checked when the app is built
//   (RegistrationError naming the option or Class.method); a task tool in an app without the
//   tasks feature fails McpApp.create() with the fix in the message;
// - recovery on a timer: a task whose worker died (its lease lapsed) is re-run when its policy
//   is "rerun" (next attempt, same idempotency key, its @Elicit answers restored from the store),
//   failed with reason worker-lost when it is "fail", and failed with reason unknown-tool when no
//   tool of its name is registered here;
// - close(): a running "rerun" task is handed over (claimable at once), a "fail" one fails with
//   the shutdown error; a store the app was given stays open, one opened from a URL is closed;
// - store failures: a limit is -32602 naming it; an unavailable store is -32603 "Internal error"
//   with the cause in the app logger only;
// - listen() without an authenticator, on an app with a task tool, warns once that every caller
//   shares the anonymous scope, naming its limits; nothing with an authenticator or no task tool;
// - of concurrent conflicting tasks/update answers to one key, exactly one ack reads as taken
//   (the one the task holds), the others "already-answered".
import "reflect-metadata";
import { createTestClient, MemoryLogger } from "roundtrip-mcp/testing";
import { McpApp, RegistrationError, Tool, tasks, type TasksOptions } from "../../../../src/index";
import {
  MemoryTaskStore,
  TaskStoreUnavailableError,
  type ClaimedTask,
  type CreateTaskInput,
  type TaskRecord,
} from "../../../../src/stores/index";
import { TASK_APP_SECRET, TaskTools } from "../../../e2e/fixtures/task-app";

const DECLARING = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
const apps: McpApp[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  jest.restoreAllMocks();
});

function app(options: TasksOptions, logger = new MemoryLogger(), components: Function[] = [TaskTools]): McpApp {
  const built = McpApp.create({ components, state: { secret: TASK_APP_SECRET }, logger, features: [tasks(options)] });
  apps.push(built);
  return built;
}

/** A task as a process that then died would have left it: claimed, with a lease that lapses at once. */
function orphan(
  store: MemoryTaskStore,
  toolName: string,
  retryPolicy: "rerun" | "fail",
  answers: Record<string, unknown> = {},
): Promise<ClaimedTask> {
  const input = { arguments: {}, answers, capabilities: DECLARING } as unknown as CreateTaskInput["input"];
  return store.create({ principal: null, toolName, input, ttlMs: 60_000, retryPolicy, lease: { owner: "dead-instance", durationMs: 1 } });
}

/** Resolves with the task once it ended. */
function ended(store: MemoryTaskStore, id: string): Promise<TaskRecord> {
  return new Promise((resolve) => {
    const watching = store.watch(id, null, (task) => {
      if (task && ["completed", "failed", "cancelled"].includes(task.status)) void watching.then((w) => (w.close(), resolve(task)));
    });
  });
}

describe("tasks() and @Tool({ task }) checks", () => {
  it.each([
    [{ leaseMs: 2 }, /leaseMs must be an integer from 3/],
    [{ ttlMs: 0 }, /ttlMs \(or null\) must be an integer/],
    [{ pollIntervalMs: 1.5 }, /pollIntervalMs must be an integer/],
    [{ store: 5 as unknown as string }, /store must be a store URL or a TaskStore/],
  ])("refuses tasks(%j)", (options, message) => {
    expect(() => tasks(options)).toThrow(RegistrationError);
    expect(() => tasks(options)).toThrow(message);
  });

  it.each([
    [{ support: "sometimes" }, /Bad\.job: task\.support must be "optional" or "required"/],
    [{ support: "required", retryPolicy: "again" }, /task\.retryPolicy must be "fail" or "rerun"/],
    [{ support: "required", maxAttempts: 3 }, /task\.maxAttempts applies to retryPolicy "rerun" only/],
    [{ support: "required", retryPolicy: "rerun", maxAttempts: 0 }, /task\.maxAttempts must be an integer from 1 to 100/],
    [{ support: "optional", ttlMs: -1 }, /task\.ttlMs \(or null\) must be an integer/],
  ])("refuses @Tool({ task: %j }) naming the method", (task, message) => {
    class Bad {
      @Tool({ task: task as never })
      job() {
        return "x";
      }
    }
    expect(() => app({ store: "memory:" }, undefined, [Bad])).toThrow(message);
  });

  it("refuses a task tool in an app without the tasks feature, saying what to add", () => {
    class Orphaned {
      @Tool({ task: "optional" })
      job() {
        return "x";
      }
    }
    expect(() => McpApp.create({ components: [Orphaned], state: { ephemeral: true }, logger: new MemoryLogger() })).toThrow(
      /Orphaned\.job: needs the io\.modelcontextprotocol\/tasks feature, which the app does not list; list the tasks feature in McpApp\.create: features: \[tasks\(\)\]/,
    );
  });
});

describe("recovery", () => {
  it("re-runs a rerun task whose worker died: next attempt, same key, @Elicit answers restored", async () => {
    const store = new MemoryTaskStore();
    const resumable = await orphan(store, "resumable", "rerun");
    const research = await orphan(store, "research", "rerun", { topic: { action: "accept", content: { topic: "tides" } } });
    const logger = new MemoryLogger();
    app({ store, leaseMs: 3000, recoveryIntervalMs: 10 }, logger);
    expect((await ended(store, resumable.task.id)).result).toMatchObject({
      content: [{ text: `done on attempt 2 with key ${resumable.task.idempotencyKey}` }],
    });
    expect((await ended(store, research.task.id)).result).toMatchObject({ content: [{ text: "Researched tides in task yes" }] });
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ message: "task re-run", fields: expect.objectContaining({ taskId: resumable.task.id, attempt: 2 }) }),
    );
    await store.close();
  });

  it("fails a fail task whose worker died, and a rerun task whose tool is not registered here", async () => {
    const store = new MemoryTaskStore();
    const fragile = await orphan(store, "fragile", "fail");
    const unknown = await orphan(store, "retired_tool", "rerun");
    app({ store, recoveryIntervalMs: 10 });
    expect((await ended(store, fragile.task.id)).error).toMatchObject({ code: -32603, data: { reason: "worker-lost", attempts: 1 } });
    expect((await ended(store, unknown.task.id)).error).toEqual({
      code: -32603,
      message: "No instance of the server can run this task's tool",
      data: { reason: "unknown-tool", tool: "retired_tool" },
    });
    await store.close();
  });
});

describe("close()", () => {
  it("hands running rerun tasks over, fails running fail tasks, and leaves a given store open", async () => {
    const store = new MemoryTaskStore();
    const closes = jest.spyOn(store, "close");
    const served = app({ store });
    const client = await createTestClient(served, { capabilities: DECLARING });
    const rerun = (await client.raw("tools/call", { name: "resumable", arguments: { holdFirstAttempt: true } })).result!.taskId as string;
    const fail = (await client.raw("tools/call", { name: "fragile", arguments: {} })).result!.taskId as string;
    await client.close();
    await served.close();
    expect((await store.claim(rerun, "another-instance", 1000))?.task.attempt).toBe(2);
    expect((await store.get(fail, null))?.error).toMatchObject({
      message: "The server shut down before the task finished",
      data: { reason: "shutdown" },
    });
    expect(closes).not.toHaveBeenCalled();
    await store.close();
  });

  it("closes a store it opened from a URL", async () => {
    const closes = jest.spyOn(MemoryTaskStore.prototype, "close");
    const served = app({ store: "memory:" });
    const client = await createTestClient(served, { capabilities: DECLARING });
    await client.raw("tools/call", { name: "count", arguments: { to: 1 } });
    await client.close();
    await served.close();
    expect(closes).toHaveBeenCalledTimes(1);
  });
});

describe("store failures", () => {
  it("answers a limit with -32602 naming it", async () => {
    const store = new MemoryTaskStore({ limits: { maxActiveTasksPerPrincipal: 1, maxActiveAnonymousTasks: 2 } });
    const client = await createTestClient(app({ store }), { capabilities: DECLARING });
    const ada = client.as("ada");
    expect((await ada.raw("tools/call", { name: "wait_for_cancel", arguments: {} })).result).toMatchObject({ resultType: "task" });
    expect((await ada.raw("tools/call", { name: "wait_for_cancel", arguments: {} })).error).toEqual({
      code: -32602,
      message: "Task limit reached: activeTasksPerPrincipal (1)",
    });
    // The anonymous scope (the in-process client here) has limits of its own, and says it is shared.
    for (let i = 0; i < 2; i++)
      expect((await client.raw("tools/call", { name: "wait_for_cancel", arguments: {} })).result).toMatchObject({ resultType: "task" });
    expect((await client.raw("tools/call", { name: "wait_for_cancel", arguments: {} })).error).toEqual({
      code: -32602,
      message: "Task limit reached: activeAnonymousTasks (2), shared by every caller without an identity",
    });
    await client.close();
  });

  it("answers an unavailable store with a generic -32603, the cause in the logger only", async () => {
    const store = new MemoryTaskStore();
    jest.spyOn(store, "create").mockRejectedValue(
      new TaskStoreUnavailableError("The PostgreSQL task store is unavailable (ECONNREFUSED)", {
        cause: new Error("connect ECONNREFUSED 10.0.0.7:5432"),
      }),
    );
    const logger = new MemoryLogger();
    const client = await createTestClient(app({ store }, logger), { capabilities: DECLARING });
    expect((await client.raw("tools/call", { name: "count", arguments: { to: 1 } })).error).toEqual({
      code: -32603,
      message: "Internal error",
    });
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: "error",
        fields: expect.objectContaining({ operation: "create", code: "store-unavailable", cause: "connect ECONNREFUSED 10.0.0.7:5432" }),
      }),
    );
    await client.close();
    await store.close();
  });
});

describe("anonymous callers over HTTP", () => {
  const WARNING = /task tools are served over HTTP without an authenticator: every caller shares the anonymous task scope/;
  const warnings = (logger: MemoryLogger) => logger.entries.filter((e) => e.level === "warn" && WARNING.test(e.message));

  it("warns once at listen() without an authenticator, naming the shared scope's limits", async () => {
    const logger = new MemoryLogger();
    const served = app({ store: new MemoryTaskStore({ limits: { maxActiveAnonymousTasks: 7 } }) }, logger);
    const first = await served.listen({ host: "127.0.0.1", port: 0 });
    const second = await served.listen({ host: "127.0.0.1", port: 0 });
    expect(warnings(logger)).toHaveLength(1);
    expect(warnings(logger)[0]!.message).toContain("(maxAnonymousTasks 50000, maxActiveAnonymousTasks 7)");
    await first.close();
    await second.close();
  });

  it("says nothing when the listener authenticates, or when no tool runs as a task", async () => {
    const authenticated = new MemoryLogger();
    const listener = await app({ store: "memory:" }, authenticated).listen({ host: "127.0.0.1", port: 0, authenticate: async () => "ada" });
    await listener.close();
    expect(warnings(authenticated)).toEqual([]);
    class NoTasks {
      @Tool({ description: "plain" })
      plain() {
        return "plain";
      }
    }
    const plain = new MemoryLogger();
    const other = await app({ store: "memory:" }, plain, [NoTasks]).listen({ host: "127.0.0.1", port: 0 });
    await other.close();
    expect(warnings(plain)).toEqual([]);
  });
});

describe("what an ack says under races", () => {
  it("of four concurrent conflicting answers to one key, exactly one reads as taken, and it is the one the task got", async () => {
    const store = new MemoryTaskStore();
    const client = await createTestClient(app({ store }), { capabilities: DECLARING });
    const created = await client.raw("tools/call", { name: "approve", arguments: { item: "invoice 9" } });
    const taskId = created.result!.taskId as string;
    await new Promise<void>((resolve) => {
      const watching = store.watch(
        taskId,
        null,
        (task) => task?.status === "input_required" && void watching.then((w) => (w.close(), resolve())),
      );
    });
    const notes = ["a", "b", "c", "d"];
    const acks = await Promise.all(
      notes.map((note) =>
        client.raw("tasks/update", { taskId, inputResponses: { approval: { action: "accept", content: { approve: true, note } } } }),
      ),
    );
    const effects = acks.map(
      (a) => (a.result!._meta as Record<string, { applied: boolean; ignored: Record<string, string> }>)["roundtrip-mcp/effect"]!,
    );
    const taken = effects.flatMap((e, i) => (e.applied ? [notes[i]] : []));
    expect(taken).toHaveLength(1);
    for (const effect of effects.filter((e) => !e.applied)) expect(effect.ignored).toEqual({ approval: "already-answered" });
    const stored = (await store.get(taskId, null))!.inputResponses.approval as { content: { note: string } };
    expect(stored.content.note).toBe(taken[0]);
    await client.close();
  });
});
