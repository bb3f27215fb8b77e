/*
 * Behaviours pinned (test/support/wire-schema.ts, the validator other tests rely on):
 * - complete results validate against the $def of the method that was called, and need
 *   resultType "complete" plus the cache hints (ttlMs, cacheScope) where the schema requires them;
 * - a result without resultType, a list result without ttlMs, a bad content block are rejected;
 * - input_required is accepted only on tools/call, resources/read, prompts/get, must carry
 *   inputRequests (non-empty) or requestState, and must not carry ttlMs / cacheScope;
 * - resultType values other than "complete" / "input_required" are rejected;
 * - numbers in ElicitResult.content are accepted after the in-memory patch, which the
 *   unpatched schema.json rejects (the quirk still exists, so the patch is still needed);
 * - error responses, notifications and whole response streams are checked, with the request
 *   id echo, no result+error, no server requests, no batches;
 * - RESULT_DEFS and NOTIFICATION_DEFS agree with the schema's own *ResultResponse,
 *   ClientRequest and ServerNotification defs;
 * - failures throw WireSchemaError naming the ajv errors and including the message;
 * - the schema shipped in test/support/spec is byte-identical to the published one (sha256);
 * - the tasks extension: its shipped schema is byte-identical to the published one; tools/call
 *   may answer a flat CreateTaskResult (never with content, result, error, inputRequests,
 *   requestState or the legacy ttl / pollInterval; ttlMs null or a positive integer,
 *   pollIntervalMs a positive integer, ISO timestamps); tasks/get a DetailedTask inlining only
 *   what its status calls for (no requestState, no related-task _meta on the result);
 *   tasks/update and tasks/cancel an empty {resultType: "complete"}.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import {
  NOTIFICATION_DEFS,
  RESULT_DEFS,
  TASKS_SCHEMA_PATH,
  WIRE_SCHEMA_PATH,
  WireSchemaError,
  isValidDef,
  patchSchema,
  validateDef,
  validateError,
  validateJsonRpcMessage,
  validateNotification,
  validateResponseStream,
  validateResult,
  validateServerMessage,
} from "../../support/wire-schema";

/** The parts of a JSON Schema node these tests read. */
type SchemaNode = {
  anyOf?: SchemaNode[];
  $ref?: string;
  const?: unknown;
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode;
};
const schema = JSON.parse(fs.readFileSync(WIRE_SCHEMA_PATH, "utf8")) as { $defs: Record<string, SchemaNode> };

describe("the shipped schema file", () => {
  it("is byte-identical to the published 2026-07-28 schema.json", () => {
    const digest = createHash("sha256").update(fs.readFileSync(WIRE_SCHEMA_PATH)).digest("hex");
    expect(digest).toBe("ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203");
  });
});

const elicitRequest = {
  method: "elicitation/create",
  params: {
    message: "What is your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
};

const toolsList = {
  resultType: "complete",
  tools: [{ name: "greet", description: "Greets", inputSchema: { type: "object" } }],
  ttlMs: 0,
  cacheScope: "private",
};

describe("complete results", () => {
  it("accepts valid results for each kind of method", () => {
    expect(() => validateResult("tools/list", toolsList)).not.toThrow();
    expect(() => validateResult("tools/call", { resultType: "complete", content: [{ type: "text", text: "hi" }] })).not.toThrow();
    expect(() =>
      validateResult("resources/read", {
        resultType: "complete",
        contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "x" }],
        ttlMs: 1000,
        cacheScope: "public",
      }),
    ).not.toThrow();
    expect(() =>
      validateResult("prompts/get", {
        resultType: "complete",
        messages: [{ role: "user", content: { type: "text", text: "hello" } }],
      }),
    ).not.toThrow();
    expect(() =>
      validateResult("server/discover", {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1.0.0" } },
      }),
    ).not.toThrow();
    expect(() => validateResult("completion/complete", { resultType: "complete", completion: { values: ["paris"] } })).not.toThrow();
  });

  it("rejects a tools/list result without resultType", () => {
    const { resultType: _omitted, ...withoutType } = toolsList;
    expect(() => validateResult("tools/list", withoutType)).toThrow(/resultType/);
  });

  it("rejects list and read results without ttlMs", () => {
    const { ttlMs: _omitted, ...withoutTtl } = toolsList;
    expect(() => validateResult("tools/list", withoutTtl)).toThrow(/ttlMs/);
    expect(() => validateResult("resources/read", { resultType: "complete", contents: [], cacheScope: "public" })).toThrow(/ttlMs/);
  });

  it("rejects a bad content block", () => {
    expect(() => validateResult("tools/call", { resultType: "complete", content: [{ type: "text" }] })).toThrow(WireSchemaError);
    expect(() => validateResult("tools/call", { resultType: "complete", content: [{ type: "video", data: "AA==" }] })).toThrow(
      WireSchemaError,
    );
  });

  it('rejects resultType values other than complete and input_required, and "task" off tools/call', () => {
    expect(() => validateResult("tools/call", { resultType: "later", content: [] })).toThrow(/"later"/);
    expect(() => validateResult("tools/list", { resultType: "task", taskId: "t" })).toThrow(/"task"/);
  });

  it("refuses a method it has no $def for", () => {
    expect(() => validateResult("tasks/list", { resultType: "complete" })).toThrow(/no result \$def/);
  });
});

describe("input_required results", () => {
  it("accepts inputRequests alone, requestState alone, or both", () => {
    const base = { resultType: "input_required" };
    expect(() => validateResult("tools/call", { ...base, inputRequests: { user_name: elicitRequest } })).not.toThrow();
    expect(() => validateResult("resources/read", { ...base, requestState: "opaque" })).not.toThrow();
    expect(() =>
      validateResult("prompts/get", { ...base, inputRequests: { user_context: elicitRequest }, requestState: "s" }),
    ).not.toThrow();
  });

  it("rejects input_required with neither inputRequests nor requestState", () => {
    expect(() => validateResult("tools/call", { resultType: "input_required" })).toThrow(/at least one of/);
    expect(() => validateResult("tools/call", { resultType: "input_required", inputRequests: {} })).toThrow(/at least one of/);
  });

  it("rejects cache hints on input_required", () => {
    const r = { resultType: "input_required", requestState: "s" };
    expect(() => validateResult("resources/read", { ...r, ttlMs: 0 })).toThrow(/ttlMs/);
    expect(() => validateResult("resources/read", { ...r, cacheScope: "private" })).toThrow(/cacheScope/);
  });

  it("rejects input_required on methods other than tools/call, resources/read, prompts/get", () => {
    for (const method of ["tools/list", "server/discover", "completion/complete", "prompts/list"]) {
      expect(() => validateResult(method, { resultType: "input_required", requestState: "s" })).toThrow(/not allowed/);
    }
  });

  it("rejects a malformed input request", () => {
    expect(() => validateResult("tools/call", { resultType: "input_required", inputRequests: { x: { method: "ping" } } })).toThrow(
      WireSchemaError,
    );
  });
});

describe("the ElicitResult number patch", () => {
  it("accepts a non-integer number in ElicitResult.content", () => {
    expect(() => validateDef("ElicitResult", { action: "accept", content: { age: 3.5 } })).not.toThrow();
    expect(isValidDef("ElicitResult", { action: "accept", content: { age: { nested: 1 } } })).toBe(false);
  });

  it("accepts it inside a retried tools/call request", () => {
    expect(() =>
      validateDef("CallToolRequest", {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "t",
          arguments: {},
          inputResponses: { ask: { action: "accept", content: { age: 3.5, ok: true, tags: ["a"] } } },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
          },
        },
      }),
    ).not.toThrow();
  });

  it("is still needed: the file on disk rejects 3.5 and is not modified", () => {
    const before = fs.readFileSync(WIRE_SCHEMA_PATH, "utf8");
    const raw = JSON.parse(before);
    const ajv = new Ajv2020({ allowUnionTypes: true, validateFormats: false });
    ajv.addSchema(raw, "raw");
    const unpatched = ajv.compile({ $ref: "raw#/$defs/ElicitResult" });
    expect(unpatched({ action: "accept", content: { age: 3.5 } })).toBe(false);
    patchSchema(raw);
    expect(JSON.stringify(raw)).toBe(JSON.stringify(JSON.parse(before)));
  });

  it("fails loudly when the quirk it patches is gone", () => {
    const fixed = structuredClone(schema);
    const scalars = fixed.$defs.ElicitResult?.properties?.content?.additionalProperties?.anyOf?.[1];
    if (scalars === undefined) throw new Error("ElicitResult.content.additionalProperties.anyOf[1] is gone from the schema");
    scalars.type = ["string", "number", "boolean"];
    expect(() => patchSchema(fixed)).toThrow(/revisit patchSchema/);
  });
});

describe("errors, notifications and messages", () => {
  const error = { jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Invalid params", data: { uri: "x" } } };

  it("accepts a valid error response and checks the id echo", () => {
    expect(() => validateError(error)).not.toThrow();
    expect(() => validateError(error, 7)).not.toThrow();
    expect(() => validateError(error, 8)).toThrow(/does not echo/);
  });

  it("rejects a non-integer code and a response with both result and error", () => {
    expect(() => validateError({ ...error, error: { code: "bad", message: "m" } })).toThrow(WireSchemaError);
    expect(() => validateError({ ...error, result: { resultType: "complete" } })).toThrow(/both result and error/);
  });

  it("validates notifications by method", () => {
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p", progress: 50, total: 100 },
    };
    expect(() => validateNotification(progress)).not.toThrow();
    expect(() => validateNotification({ ...progress, params: { progress: 1 } })).toThrow(/progressToken/);
    expect(() => validateNotification({ jsonrpc: "2.0", method: "notifications/initialized" })).toThrow(/not a server notification/);
    expect(() => validateNotification({ ...progress, id: 1 })).toThrow(/MUST NOT carry an id/);
  });

  it("dispatches server messages by shape", () => {
    const response = { jsonrpc: "2.0", id: 1, result: toolsList };
    expect(() => validateServerMessage(response, "tools/list")).not.toThrow();
    expect(() => validateServerMessage({ ...response, result: { ...toolsList, ttlMs: -1 } }, "tools/list")).toThrow(/ttlMs/);
    expect(() => validateServerMessage(error)).not.toThrow();
    expect(() => validateServerMessage({ jsonrpc: "2.0", id: 3, method: "elicitation/create", params: elicitRequest.params })).toThrow(
      /servers send no requests/,
    );
    expect(() => validateServerMessage([response])).toThrow(/batches/);
    expect(() => validateServerMessage({ jsonrpc: "2.0", id: 1, result: {} })).toThrow(/resultType/);
    expect(() => validateServerMessage({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required" } })).toThrow(/at least one of/);
    expect(() => validateJsonRpcMessage(response)).not.toThrow();
    expect(() => validateJsonRpcMessage({ jsonrpc: "1.0", id: 1, result: {} })).toThrow(WireSchemaError);
  });

  it("checks a response stream: notifications first, the response last", () => {
    const note = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };
    const done = { jsonrpc: "2.0", id: 1, result: { resultType: "input_required", requestState: "s" } };
    expect(() => validateResponseStream([note, note, done], "tools/call")).not.toThrow();
    expect(() => validateResponseStream([done, note], "tools/call")).toThrow(/before the end/);
    expect(() => validateResponseStream([note], "tools/call")).toThrow(/not the final response/);
  });

  it("reports ajv errors and the offending message", () => {
    let caught: unknown;
    try {
      validateResult("tools/list", { resultType: "complete", tools: [], cacheScope: "private" });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(WireSchemaError);
    const err = caught as WireSchemaError;
    expect(err.message).toContain("not a valid ListToolsResult");
    expect(err.message).toContain("must have required property 'ttlMs'");
    expect(err.message).toContain('"cacheScope": "private"');
    expect(err.errors.length).toBeGreaterThan(0);
  });
});

describe("the tasks extension", () => {
  const task = {
    taskId: "abc",
    status: "working",
    createdAt: "2026-08-01T10:00:00.000Z",
    lastUpdatedAt: "2026-08-01T10:00:01.000Z",
    ttlMs: 60000,
    pollIntervalMs: 500,
  };

  it("ships the published schema byte for byte", () => {
    const digest = createHash("sha256").update(fs.readFileSync(TASKS_SCHEMA_PATH)).digest("hex");
    expect(digest).toBe("10933a5003097bbccb03d964e6a5f7a2819cc4d7a1d07e27c6765cbf5da35c5c");
  });

  it("accepts a flat CreateTaskResult on tools/call, with ttlMs null or positive", () => {
    expect(() => validateResult("tools/call", { resultType: "task", ...task })).not.toThrow();
    expect(() =>
      validateResult("tools/call", { resultType: "task", ...task, ttlMs: null, pollIntervalMs: undefined, statusMessage: "queued" }),
    ).not.toThrow();
  });

  it.each([
    ["content", { content: [] }, /MUST NOT carry content/],
    ["requestState", { requestState: "s" }, /MUST NOT carry requestState/],
    ["the legacy ttl", { ttl: 60000 }, /MUST NOT carry ttl/],
    ["a zero ttlMs", { ttlMs: 0 }, /ttlMs must be null or a positive integer/],
    ["a fractional pollIntervalMs", { pollIntervalMs: 1.5 }, /not a valid|pollIntervalMs/],
    ["a date that is not ISO 8601", { createdAt: "yesterday" }, /createdAt must be an ISO 8601 timestamp/],
  ])("rejects a CreateTaskResult with %s", (_what, change, message) => {
    expect(() => validateResult("tools/call", { resultType: "task", ...task, ...change })).toThrow(message);
  });

  it("accepts a DetailedTask per status on tasks/get, each with what it inlines", () => {
    const get = (extra: Record<string, unknown>) => validateResult("tasks/get", { resultType: "complete", ...task, ...extra });
    expect(() => get({})).not.toThrow();
    expect(() => get({ status: "input_required", inputRequests: { name: elicitRequest } })).not.toThrow();
    expect(() => get({ status: "completed", result: { resultType: "complete", content: [] } })).not.toThrow();
    expect(() => get({ status: "failed", error: { code: -32603, message: "Internal error" } })).not.toThrow();
    expect(() => get({ status: "cancelled" })).not.toThrow();
  });

  it.each([
    [
      "a result on a failed task",
      { status: "failed", error: { code: -32603, message: "x" }, result: {} },
      /failed task MUST NOT carry result/,
    ],
    ["requestState", { requestState: "s" }, /MUST NOT carry requestState/],
    ["an empty inputRequests", { status: "input_required", inputRequests: {} }, /non-empty inputRequests/],
    [
      "the related-task _meta",
      { status: "completed", result: { content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "abc" } } } },
      /related-task/,
    ],
    ["a completed task without its result", { status: "completed" }, /not a valid tasks:GetTaskResult/],
  ])("rejects a DetailedTask with %s", (_what, change, message) => {
    expect(() => validateResult("tasks/get", { resultType: "complete", ...task, ...change })).toThrow(message);
  });

  it("accepts only an empty acknowledgement from tasks/update and tasks/cancel", () => {
    expect(() => validateResult("tasks/update", { resultType: "complete" })).not.toThrow();
    expect(() => validateResult("tasks/cancel", { resultType: "complete", _meta: {} })).not.toThrow();
    expect(() => validateResult("tasks/cancel", { resultType: "complete", taskId: "abc", status: "cancelled" })).toThrow(
      /MUST NOT carry taskId/,
    );
    expect(() => validateResult("tasks/update", { resultType: "task" })).toThrow(WireSchemaError);
  });
});

describe("the method maps agree with the schema", () => {
  it("RESULT_DEFS covers every client request method", () => {
    const methods = (schema.$defs.ClientRequest!.anyOf ?? []).map(
      (r) => schema.$defs[r.$ref?.split("/").pop() as string]!.properties?.method?.const,
    );
    expect(Object.keys(RESULT_DEFS).sort()).toEqual(methods.sort());
  });

  it("RESULT_DEFS matches each *ResultResponse def", () => {
    for (const defs of Object.values(RESULT_DEFS)) {
      const complete = defs.find((d) => d !== "InputRequiredResult") as string;
      const result = schema.$defs[`${complete}Response`]?.properties?.result;
      const refs = (result?.anyOf ?? [result]).map((r) => r?.$ref ?? "(no $ref)");
      expect(refs.map((r) => r.split("/").pop()).sort()).toEqual([...defs].sort());
    }
  });

  it("NOTIFICATION_DEFS matches ServerNotification", () => {
    const defs = (schema.$defs.ServerNotification!.anyOf ?? []).map((r) => r.$ref?.split("/").pop() as string);
    expect(Object.values(NOTIFICATION_DEFS).sort()).toEqual(defs.sort());
    for (const [method, def] of Object.entries(NOTIFICATION_DEFS)) {
      expect(schema.$defs[def]!.properties?.method?.const).toBe(method);
    }
  });
});
