// Pins the tasks extension (SEP-2663) on the wire, the same over in-process, stdio (the compiled
// fixture in a child process) and HTTP, with raw JSON-RPC; every response is validated against the
// official schemas (2026-07-28 and the tasks extension's):
// - server/discover advertises capabilities.extensions["io.modelcontextprotocol/tasks"], never
//   capabilities.tasks;
// - a declaring client gets a flat CreateTaskResult (taskId, status, ISO timestamps, the tool's
//   ttlMs and pollIntervalMs; no content, result or requestState), and tasks/get right after it
//   resolves; the task completes with the tool's result inlined, its progress message as the
//   statusMessage; a non-declaring client gets the optional tool's result inline;
// - a required-task tool: -32021 naming the extension for a non-declaring client (before any
//   round); MRTR rounds first, then the last round's CreateTaskResult without requestState;
// - a question asked mid-task: input_required with inputRequests and the status message; an
//   invalid answer is -32602 naming the key, an unknown key is ignored, a valid answer completes
//   the task; sampling asked the same way;
// - outcomes: isError -> completed with the result; McpError -> failed with that error and no
//   result, its message as the statusMessage (not the progress message reported before); a crash, an unserializable result or input_required from a task -> failed with a
//   generic -32603 and an error id (never the exception's text);
// - cancel: an empty ack, the task reads cancelled, a second cancel (terminal task) the same ack;
//   every tasks/update and tasks/cancel ack says in _meta["roundtrip-mcp/effect"] whether it took
//   effect and the task's status: a cancel too late for a completed task, an answer to a key not
//   asked (yet), already answered differently, or to an ended task; a retried answer reads as taken;
// - a tools/call retried with the same _meta["roundtrip-mcp/idempotencyKey"] answers the task the
//   first try made, as it is now; the key used for another call, or malformed, is -32602;
// - tasks/result and tasks/list are -32601; tasks/* without the extension -32021; an unknown task
//   -32602, and another principal's task exactly the same error (in-process and HTTP);
// - malformed tasks/* params are -32602; a legacy `task` param on tools/call is ignored;
// - over HTTP, Mcp-Name must equal params.taskId (-32020, HTTP 400), checked by the SDK.
import type { TestClient } from "roundtrip-mcp/testing";
import type { JsonObject } from "../../src/index";
import { KIT_BOUNDARIES, kitClient } from "../support/kit-clients";
import { validateError, validateServerMessage } from "../support/wire-schema";
import { TASK_APP_SECRET, createTaskApp } from "./fixtures/task-app";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const DECLARING = { elicitation: {}, sampling: {}, ...TASKS };
const TERMINAL = ["completed", "failed", "cancelled"];
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "task-app", version: "1.0.0" } };
const IDEMPOTENCY_KEY = "roundtrip-mcp/idempotencyKey";
/** The empty acknowledgement (the SDK stamps serverInfo on every result), saying in `_meta` what it did. */
const ack = (effect: JsonObject) => ({ resultType: "complete", _meta: { ...SERVER_INFO, "roundtrip-mcp/effect": effect } });

type Response = { result?: JsonObject; error?: { code: number; message: string; data?: JsonObject } };

describe.each(KIT_BOUNDARIES)("the tasks extension over %s", (boundary) => {
  let client: TestClient;

  /** One raw request, validated against the schemas, as its response. */
  async function send(method: string, params: JsonObject, capabilities: JsonObject = DECLARING): Promise<Response> {
    const response = (await client.raw(method, params, { capabilities })) as unknown as JsonObject;
    validateServerMessage(response, method);
    return response as Response;
  }

  async function created(name: string, args: JsonObject = {}): Promise<JsonObject> {
    const { result, error } = await send("tools/call", { name, arguments: args });
    expect(error).toBeUndefined();
    expect(result!.resultType).toBe("task");
    return result!;
  }

  async function get(taskId: string): Promise<JsonObject> {
    return (await send("tasks/get", { taskId })).result!;
  }

  /** Polls tasks/get until `done` holds (20 ms apart, at most 10 s). */
  async function until(taskId: string, done: (task: JsonObject) => boolean): Promise<JsonObject> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await get(taskId);
      if (done(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} is still ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const settled = (taskId: string) => until(taskId, (task) => TERMINAL.includes(task.status as string));

  beforeAll(async () => {
    client = await kitClient(
      boundary,
      "tasks",
      (overrides) => createTaskApp(overrides, { store: "memory:", leaseMs: 3000 }),
      TASK_APP_SECRET,
    );
  });
  afterAll(async () => {
    await client.close();
    if (boundary !== "stdio") await client.app.close();
  });
  afterEach(() => expect(client.unexpectedMessages).toEqual([]));

  it("advertises the extension under capabilities.extensions only", async () => {
    const { result } = await send("server/discover", {});
    const capabilities = result!.capabilities as JsonObject;
    expect(capabilities.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    expect(capabilities).not.toHaveProperty("tasks");
  });

  it("creates a flat task that resolves at once and completes with the result inlined", async () => {
    const task = await created("count", { to: 3 });
    expect(Object.keys(task).sort()).toEqual([
      "_meta",
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "taskId",
      "ttlMs",
    ]);
    expect(task).toMatchObject({ status: "working", ttlMs: 600_000, pollIntervalMs: 50 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await get(task.taskId as string)).taskId).toBe(task.taskId);
    const done = await settled(task.taskId as string);
    expect(done).toMatchObject({
      resultType: "complete",
      status: "completed",
      statusMessage: "Counted 3 of 3",
      result: { resultType: "complete", structuredContent: { counted: 3, task: true } },
    });
    expect(Date.parse(done.lastUpdatedAt as string)).toBeGreaterThanOrEqual(Date.parse(task.createdAt as string));
  });

  it("runs an optional task tool inline for a client without the extension, and ignores a legacy task param", async () => {
    const { result } = await send("tools/call", { name: "count", arguments: { to: 2 }, task: { ttl: 60000 } }, { elicitation: {} });
    expect(result).toMatchObject({ resultType: "complete", structuredContent: { counted: 2, task: false } });
    const plain = await send("tools/call", { name: "plain", arguments: {}, task: { ttl: 60000 } });
    expect(plain.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "plain" }] });
  });

  it("refuses a required-task tool to a client without the extension, before any question", async () => {
    for (const name of ["approve", "research"]) {
      const { error } = await send("tools/call", { name, arguments: { item: "x" } }, { elicitation: {} });
      // Refused before any question (the payload: test/unit/features/tasks/tasks-extension.test.ts).
      expect([error?.code, error?.data]).toEqual([-32021, { requiredCapabilities: TASKS }]);
    }
  });

  it("resolves MRTR rounds first, then answers the last round with a task", async () => {
    const round1 = await send("tools/call", { name: "research", arguments: {} });
    expect(round1.result).toMatchObject({ resultType: "input_required", inputRequests: { topic: { method: "elicitation/create" } } });
    const round2 = await send("tools/call", {
      name: "research",
      arguments: {},
      inputResponses: { topic: { action: "accept", content: { topic: "tides" } } },
      requestState: round1.result!.requestState,
    });
    expect(round2.result!.resultType).toBe("task");
    expect(round2.result).not.toHaveProperty("requestState");
    expect(round2.result).not.toHaveProperty("inputRequests");
    const done = await settled(round2.result!.taskId as string);
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "Researched tides in task yes" }] });
  });

  it("asks mid-task, checks answers like an MRTR round, ignores unknown keys, and completes", async () => {
    const { taskId } = await created("approve", { item: "invoice 7" });
    const waiting = await until(taskId as string, (task) => task.status === "input_required");
    expect(waiting.statusMessage).toBe("Waiting for an approval of invoice 7");
    expect(waiting.inputRequests).toEqual({
      approval: {
        method: "elicitation/create",
        params: { mode: "form", message: "Approve invoice 7?", requestedSchema: expect.objectContaining({ required: ["approve"] }) },
      },
    });
    const invalid = await send("tasks/update", { taskId, inputResponses: { approval: { action: "accept", content: { approve: "yes" } } } });
    expect(invalid.error).toMatchObject({ code: -32602, message: "Invalid elicitation response", data: { key: "approval" } });
    const ignored = await send("tasks/update", { taskId, inputResponses: { "unknown-key": { ignored: true } } });
    expect(ignored.result).toEqual(
      ack({ applied: false, status: "input_required", accepted: [], ignored: { "unknown-key": "not-asked" } }),
    );
    expect((await get(taskId as string)).status).toBe("input_required");
    const answer = { action: "accept", content: { approve: true, note: "ok by me" } };
    const taken = await send("tasks/update", { taskId, inputResponses: { approval: answer } });
    expect(taken.result).toMatchObject(ack({ applied: true, accepted: ["approval"], ignored: {} }));
    // A retry of the same answer (its ack lost) reads as taken; a different answer to the same key does not.
    expect((await send("tasks/update", { taskId, inputResponses: { approval: answer } })).result).toMatchObject(
      ack({ applied: true, accepted: ["approval"] }),
    );
    const conflicting = await send("tasks/update", { taskId, inputResponses: { approval: { action: "decline" } } });
    expect(conflicting.result).toMatchObject(ack({ applied: false, accepted: [], ignored: { approval: "already-answered" } }));
    const done = await settled(taskId as string);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "invoice 7: approved (ok by me)" }] } });
    expect(done).not.toHaveProperty("inputRequests");
  });

  it("asks the client's model mid-task with a sampling request", async () => {
    const { taskId } = await created("summarise");
    const waiting = await until(taskId as string, (task) => task.status === "input_required");
    expect((waiting.inputRequests as JsonObject).summary).toMatchObject({ method: "sampling/createMessage" });
    await send("tasks/update", {
      taskId,
      inputResponses: { summary: { role: "assistant", content: { type: "text", text: "All good" }, model: "m" } },
    });
    expect((await settled(taskId as string)).result).toMatchObject({
      content: [{ type: "text", text: 'Summary: {"type":"text","text":"All good"}' }],
    });
  });

  it("ends a tool error completed, a typed error failed, and a crash failed with a generic error", async () => {
    const soft = await settled((await created("soft_fail")).taskId as string);
    expect(soft).toMatchObject({
      status: "completed",
      result: { isError: true, content: [{ type: "text", text: "That cannot be done" }] },
    });
    const typed = await settled((await created("typed_fail")).taskId as string);
    expect(typed).toMatchObject({
      status: "failed",
      statusMessage: "Quota exceeded",
      error: { code: -33001, message: "Quota exceeded", data: { retryAfterMs: 5000 } },
    });
    expect(typed).not.toHaveProperty("result");
    for (const name of ["crash", "unserializable", "mrtr_in_task"]) {
      const crashed = await settled((await created(name)).taskId as string);
      expect(crashed).toMatchObject({
        status: "failed",
        error: { code: -32603, message: "Internal error", data: { errorId: expect.any(String) } },
      });
      expect(JSON.stringify(crashed)).not.toMatch(/hunter2|BigInt|input_required/);
    }
  });

  it("cancels with an empty ack, settles cancelled, and acks a cancel of a finished task alike", async () => {
    const { taskId } = await created("wait_for_cancel");
    const cancelled = await send("tasks/cancel", { taskId });
    expect(cancelled.result).toEqual(ack({ applied: true, status: "cancelled" }));
    expect((await get(taskId as string)).status).toBe("cancelled");
    expect((await send("tasks/cancel", { taskId })).result).toEqual(ack({ applied: true, status: "cancelled" }));
    expect((await send("tasks/update", { taskId, inputResponses: {} })).result).toEqual(
      ack({ applied: true, status: "cancelled", accepted: [], ignored: {} }),
    );
    expect((await send("tasks/update", { taskId, inputResponses: { late: 1 } })).result).toEqual(
      ack({ applied: false, status: "cancelled", accepted: [], ignored: { late: "task-finished" } }),
    );
    expect((await get(taskId as string)).status).toBe("cancelled");
  });

  it("shows a failed task's error message as its status, never the progress message it had", async () => {
    const { taskId } = await created("progress_then_fail");
    expect(await settled(taskId as string)).toMatchObject({
      status: "failed",
      statusMessage: "Upstream gone",
      error: { code: -33002, message: "Upstream gone" },
    });
  });

  it("says when a cancel came too late: the task had completed, and stays completed", async () => {
    const { taskId } = await created("count", { to: 1 });
    await settled(taskId as string);
    expect((await send("tasks/cancel", { taskId })).result).toEqual(ack({ applied: false, status: "completed" }));
    expect((await get(taskId as string)).status).toBe("completed");
  });

  it("says an answer sent before its question was not taken, so the client sends it again once asked", async () => {
    const { taskId } = await created("wait_for_cancel");
    const early = await send("tasks/update", { taskId, inputResponses: { approval: { action: "accept", content: { approve: true } } } });
    expect(early.result).toEqual(ack({ applied: false, status: "working", accepted: [], ignored: { approval: "not-asked" } }));
    const task = await get(taskId as string);
    expect(task.status).toBe("working");
    await send("tasks/cancel", { taskId });
  });

  it("answers a retried create with the same idempotency key with the task the first try made", async () => {
    const key = `order-${boundary}-${Date.now()}`;
    const call = (name: string, args: JsonObject, idempotencyKey: unknown) =>
      send("tools/call", {
        name,
        arguments: args,
        _meta: { ...client.meta({ capabilities: DECLARING }), [IDEMPOTENCY_KEY]: idempotencyKey },
      });
    const first = await call("count", { to: 2 }, key);
    expect(first.result).toMatchObject({ resultType: "task", status: "working" });
    const done = await settled(first.result!.taskId as string);
    const retry = await call("count", { to: 2 }, key);
    expect(retry.result).toMatchObject({
      resultType: "task",
      taskId: first.result!.taskId,
      status: "completed",
      createdAt: first.result!.createdAt,
    });
    expect(retry.result!.lastUpdatedAt).toBe(done.lastUpdatedAt);
    const fresh = await call("count", { to: 2 }, `${key}-2`);
    expect(fresh.result!.taskId).not.toBe(first.result!.taskId);
    for (const [name, args] of [
      ["count", { to: 3 }],
      ["quick", {}],
    ] as const) {
      const misused = await call(name, args, key);
      expect(misused.error).toMatchObject({ code: -32602, message: expect.stringContaining("already used for another call") });
    }
    for (const bad of [7, "", "x".repeat(257)]) {
      expect((await call("count", { to: 1 }, bad)).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining(IDEMPOTENCY_KEY),
      });
    }
  });

  it("refuses removed methods, non-declaring clients, unknown tasks and malformed params", async () => {
    for (const method of ["tasks/result", "tasks/list"])
      expect((await send(method, { taskId: "x" })).error).toMatchObject({ code: -32601 });
    const { taskId } = await created("count", { to: 1 });
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const { error } = await send(method, { taskId, inputResponses: {} }, { elicitation: {} });
      expect([error?.code, error?.data]).toEqual([-32021, { requiredCapabilities: TASKS }]);
      expect((await send(method, { taskId: "no-such-task", inputResponses: {} })).error).toEqual({
        code: -32602,
        message: "Task not found",
      });
    }
    expect((await send("tasks/get", { taskId: 7 })).error).toMatchObject({ code: -32602 });
    expect((await send("tasks/update", { taskId, inputResponses: "yes" })).error).toMatchObject({ code: -32602 });
    expect((await send("tasks/update", { taskId })).error).toMatchObject({ code: -32602 });
  });

  if (boundary !== "stdio") {
    it("shows another principal's task exactly as an unknown one", async () => {
      const { taskId } = await created("count", { to: 1 });
      const mallory = client.as("mallory");
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const theirs = await mallory.raw(method, { taskId, inputResponses: {} }, { capabilities: DECLARING });
        const unknown = await mallory.raw(method, { taskId: "no-such-task-0000000000", inputResponses: {} }, { capabilities: DECLARING });
        validateError(theirs);
        expect(theirs.error).toEqual(unknown.error);
      }
      expect((await get(taskId as string)).taskId).toBe(taskId);
    });
  }

  if (boundary === "http") {
    it("requires Mcp-Name to equal params.taskId (the SDK's check, pinned)", async () => {
      const { taskId } = await created("count", { to: 1 });
      const wrong = await client.exchange(
        "tasks/get",
        { taskId, _meta: client.meta({ capabilities: DECLARING }) },
        { headers: { "mcp-name": "another-task" } },
      );
      expect(wrong.http?.status).toBe(400);
      expect(wrong.response.error).toMatchObject({ code: -32020 });
      const missing = await client.exchange(
        "tasks/get",
        { taskId, _meta: client.meta({ capabilities: DECLARING }) },
        { headers: { "mcp-name": undefined } },
      );
      expect(missing.http?.status).toBe(400);
      expect(missing.response.error).toMatchObject({ code: -32020 });
    });
  }
});
