/**
 * Test-only validation of wire messages against the official 2026-07-28 JSON Schema
 * (`test/support/spec/schema-2026-07-28.json`, shipped in the repository; see the README beside it).
 *
 * The schema alone is lenient in ways that would let real mistakes through, so the
 * validators here add what the spec requires and the schema cannot say:
 * - a result is checked against the $def of the method that was called, chosen by its
 *   `resultType` (the schema's `anyOf: [InputRequiredResult, CallToolResult]` accepts any
 *   object with a `resultType`, because InputRequiredResult is open);
 * - `input_required` only on tools/call, resources/read, prompts/get (DIGEST §8.8);
 * - an InputRequiredResult carries at least one of inputRequests / requestState (§8.4)
 *   and no cache hints (§8.15);
 * - a response carries either `result` or `error`, never both; servers send no requests.
 *
 * The tasks extension (SEP-2663) has its own official schema (`spec/tasks-extension-schema.json`):
 * tasks/get, tasks/update and tasks/cancel results, and a `resultType: "task"` answer to
 * tools/call, are checked against its $defs, plus the MUSTs it cannot say (what a
 * CreateTaskResult, a DetailedTask and an acknowledgement must not carry; ttlMs null or a
 * positive integer; pollIntervalMs a positive integer; ISO 8601 timestamps).
 *
 * Formats (`uri`, `byte`, `uri-template`) are not checked: ajv-formats is not installed.
 *
 * @example validateServerMessage(await response.json(), "tools/call");
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";

/** The official schema, byte-identical to the published file (origin in spec/README.md). */
export const WIRE_SCHEMA_PATH = path.resolve(__dirname, "spec/schema-2026-07-28.json");

/** The tasks extension's official schema, byte-identical to the published file (origin in spec/README.md). */
export const TASKS_SCHEMA_PATH = path.resolve(__dirname, "spec/tasks-extension-schema.json");

/** Result $defs of the tasks extension's methods, in TASKS_SCHEMA_PATH. */
export const TASK_RESULT_DEFS: Readonly<Record<string, string>> = Object.freeze({
  "tasks/get": "GetTaskResult",
  "tasks/update": "UpdateTaskResult",
  "tasks/cancel": "CancelTaskResult",
});

/**
 * Result $defs by request method. A method whose list includes `InputRequiredResult` may
 * answer `input_required`; the other entry is its complete result. Mirrors the schema's
 * `*ResultResponse` defs (a unit test keeps the two in step).
 */
export const RESULT_DEFS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "server/discover": ["DiscoverResult"],
  "tools/list": ["ListToolsResult"],
  "tools/call": ["CallToolResult", "InputRequiredResult"],
  "resources/list": ["ListResourcesResult"],
  "resources/templates/list": ["ListResourceTemplatesResult"],
  "resources/read": ["ReadResourceResult", "InputRequiredResult"],
  "prompts/list": ["ListPromptsResult"],
  "prompts/get": ["GetPromptResult", "InputRequiredResult"],
  "completion/complete": ["CompleteResult"],
  "subscriptions/listen": ["SubscriptionsListenResult"],
});

/** Server-to-client notification $defs by method (the members of `ServerNotification`). */
export const NOTIFICATION_DEFS: Readonly<Record<string, string>> = Object.freeze({
  "notifications/cancelled": "CancelledNotification",
  "notifications/progress": "ProgressNotification",
  "notifications/resources/list_changed": "ResourceListChangedNotification",
  "notifications/subscriptions/acknowledged": "SubscriptionsAcknowledgedNotification",
  "notifications/resources/updated": "ResourceUpdatedNotification",
  "notifications/prompts/list_changed": "PromptListChangedNotification",
  "notifications/tools/list_changed": "ToolListChangedNotification",
  "notifications/message": "LoggingMessageNotification",
});

/** Thrown when a message breaks the schema or one of the added rules. */
export class WireSchemaError extends Error {
  constructor(
    message: string,
    readonly errors: readonly ErrorObject[] = [],
  ) {
    super(message);
    this.name = "WireSchemaError";
  }
}

type JsonObject = Record<string, unknown>;

interface Compiled {
  ajv: Ajv2020;
  defs: ReadonlySet<string>;
  taskDefs: ReadonlySet<string>;
  validators: Map<string, ValidateFunction>;
}

let compiled: Compiled | undefined;

/** Loads, patches and registers the schema once per test worker. */
function load(): Compiled {
  if (compiled) return compiled;
  if (!fs.existsSync(WIRE_SCHEMA_PATH)) {
    throw new Error(
      `MCP wire schema not found at ${WIRE_SCHEMA_PATH}. ` +
        "It ships in the repository (test/support/spec/); restore it with git checkout.",
    );
  }
  const original = JSON.parse(fs.readFileSync(WIRE_SCHEMA_PATH, "utf8")) as JsonObject;
  const schema = patchSchema(original);
  // allowUnionTypes: the schema uses `type: [..]` (RequestId, ProgressToken). Formats stay
  // unchecked because ajv-formats is not a dependency.
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, validateFormats: false });
  ajv.addSchema(schema, "mcp");
  const tasks = JSON.parse(fs.readFileSync(TASKS_SCHEMA_PATH, "utf8")) as JsonObject;
  ajv.addSchema(tasks, "tasks");
  compiled = {
    ajv,
    defs: new Set(Object.keys(schema.$defs as JsonObject)),
    taskDefs: new Set(Object.keys(tasks.$defs as JsonObject)),
    validators: new Map(),
  };
  return compiled;
}

/**
 * Returns a patched deep copy; the file on disk stays unchanged.
 *
 * Why (DIGEST §8.16): schema.ts types ElicitResult.content scalar values as
 * `string | number | boolean`, but schema.json says `string | integer | boolean`, so a valid
 * answer such as `{ "age": 3.5 }` for a `type: "number"` field would be rejected.
 * The patch widens `integer` to `number` at that one place.
 */
export function patchSchema(original: JsonObject): JsonObject {
  const schema = structuredClone(original);
  const defs = schema.$defs as Record<string, JsonObject> | undefined;
  const content = (defs?.ElicitResult?.properties as Record<string, JsonObject> | undefined)?.content;
  const anyOf = (content?.additionalProperties as JsonObject | undefined)?.anyOf as JsonObject[] | undefined;
  const scalar = anyOf?.find((branch) => Array.isArray(branch.type) && branch.type.includes("integer"));
  if (!scalar) {
    throw new Error("wire-schema: ElicitResult.content no longer has the `integer` scalar quirk; revisit patchSchema().");
  }
  scalar.type = (scalar.type as string[]).map((t) => (t === "integer" ? "number" : t));
  return schema;
}

/** `def` of the 2026-07-28 schema, or `tasks:Def` of the tasks extension's. */
function validatorFor(def: string): ValidateFunction {
  const c = load();
  let validate = c.validators.get(def);
  if (!validate) {
    const [schema, name] = def.startsWith("tasks:") ? ["tasks", def.slice(6)] : ["mcp", def];
    if (!(schema === "tasks" ? c.taskDefs : c.defs).has(name))
      throw new Error(`wire-schema: no $def named ${name} in the ${schema} schema`);
    validate = c.ajv.compile({ $ref: `${schema}#/$defs/${name}` });
    c.validators.set(def, validate);
  }
  return validate;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  return text.length > 4000 ? `${text.slice(0, 4000)}\n... (${text.length - 4000} more characters)` : text;
}

function fail(what: string, reasons: string[], value: unknown, errors: readonly ErrorObject[] = []): never {
  const listed = reasons.slice(0, 25).map((r) => `  - ${r}`);
  if (reasons.length > 25) listed.push(`  ... and ${reasons.length - 25} more`);
  throw new WireSchemaError(`${what}:\n${listed.join("\n")}\nmessage:\n${describe(value)}`, errors);
}

function formatError(e: ErrorObject): string {
  return `${e.instancePath || "(root)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`;
}

/** Validates `value` against `#/$defs/<def>` of the (patched) schema, or `tasks:<Def>` of the tasks extension's; throws on failure. */
export function validateDef(def: string, value: unknown): void {
  const validate = validatorFor(def);
  if (!validate(value)) {
    const errors = validate.errors ?? [];
    fail(`not a valid ${def}`, errors.map(formatError), value, errors);
  }
}

/** Boolean form of {@link validateDef}, for property tests. */
export function isValidDef(def: string, value: unknown): boolean {
  return validatorFor(def)(value) as boolean;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** InputRequiredResult: the schema, plus the MUSTs the schema does not encode. */
function checkInputRequired(method: string, result: JsonObject): void {
  validateDef("InputRequiredResult", result);
  const reasons: string[] = [];
  const hasRequests = isObject(result.inputRequests) && Object.keys(result.inputRequests).length > 0;
  const hasState = typeof result.requestState === "string";
  if (!hasRequests && !hasState) {
    reasons.push("an InputRequiredResult MUST carry at least one of inputRequests (non-empty) or requestState");
  }
  for (const hint of ["ttlMs", "cacheScope"]) {
    if (hint in result) reasons.push(`an InputRequiredResult MUST NOT carry the cache hint ${hint}`);
  }
  if (reasons.length > 0) fail(`${method} result breaks InputRequiredResult rules`, reasons, result);
}

/**
 * Validates the `result` of a response to `method`: `input_required` against
 * InputRequiredResult plus the rules the schema omits, anything else must be
 * `resultType: "complete"` and match the method's complete result $def.
 */
export function validateResult(method: string, result: unknown): void {
  if (method in TASK_RESULT_DEFS) return checkTaskMethodResult(method, result);
  if (method === "tools/call" && isObject(result) && result.resultType === "task") return checkCreateTaskResult(result);
  const defs = RESULT_DEFS[method];
  if (!defs) {
    throw new Error(
      `wire-schema: no result $def known for method ${method}; known: ${[...Object.keys(RESULT_DEFS), ...Object.keys(TASK_RESULT_DEFS)].join(", ")}`,
    );
  }
  if (!isObject(result)) fail(`${method} result is not an object`, ["expected a JSON object"], result);
  const resultType = result.resultType;
  if (resultType === "input_required") {
    if (!defs.includes("InputRequiredResult")) {
      fail(
        `${method} result`,
        [`resultType "input_required" is not allowed on ${method} (only tools/call, resources/read, prompts/get)`],
        result,
      );
    }
    checkInputRequired(method, result);
    return;
  }
  const complete = defs.find((d) => d !== "InputRequiredResult") as string;
  if (resultType !== undefined && resultType !== "complete") {
    // "task" belongs to the tasks extension, and only as an answer to tools/call.
    fail(`${method} result`, [`resultType must be "complete" or "input_required", got ${JSON.stringify(resultType)}`], result);
  }
  validateDef(complete, result);
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const NOT_ON_CREATE = ["result", "error", "inputRequests", "requestState", "ttl", "pollInterval", "task", "content"];
const NOT_ON_ACK = ["taskId", "status", "result", "error", "inputRequests", "requestState"];

/** The Task fields every task message shares: ttlMs, pollIntervalMs and the timestamps. */
function taskFieldProblems(task: JsonObject): string[] {
  const reasons: string[] = [];
  const positive = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v > 0;
  if (!(task.ttlMs === null || positive(task.ttlMs)))
    reasons.push(`ttlMs must be null or a positive integer, got ${JSON.stringify(task.ttlMs)}`);
  if (task.pollIntervalMs !== undefined && !positive(task.pollIntervalMs))
    reasons.push(`pollIntervalMs must be a positive integer, got ${JSON.stringify(task.pollIntervalMs)}`);
  for (const stamp of ["createdAt", "lastUpdatedAt"]) {
    if (typeof task[stamp] !== "string" || !ISO_8601.test(task[stamp] as string))
      reasons.push(`${stamp} must be an ISO 8601 timestamp, got ${JSON.stringify(task[stamp])}`);
  }
  return reasons;
}

/** A tools/call answered with a task: a flat CreateTaskResult, nothing inlined (SEP-2663). */
function checkCreateTaskResult(result: JsonObject): void {
  validateDef("tasks:CreateTaskResult", result);
  const reasons = taskFieldProblems(result);
  for (const key of NOT_ON_CREATE) if (key in result) reasons.push(`a CreateTaskResult MUST NOT carry ${key}`);
  if (reasons.length > 0) fail("tools/call result breaks CreateTaskResult rules", reasons, result);
}

/** tasks/get: a DetailedTask with what its status calls for inlined; update and cancel: an empty ack. */
function checkTaskMethodResult(method: string, result: unknown): void {
  validateDef(`tasks:${TASK_RESULT_DEFS[method]}`, result);
  const r = result as JsonObject;
  const reasons: string[] = [];
  if (r.resultType !== "complete") reasons.push(`resultType must be "complete", got ${JSON.stringify(r.resultType)}`);
  if (method !== "tasks/get") {
    for (const key of NOT_ON_ACK) if (key in r) reasons.push(`the ${method} acknowledgement MUST NOT carry ${key}`);
  } else {
    reasons.push(...taskFieldProblems(r));
    if ("requestState" in r) reasons.push("a DetailedTask MUST NOT carry requestState");
    const inlined = { input_required: "inputRequests", completed: "result", failed: "error" } as Record<string, string>;
    for (const key of ["inputRequests", "result", "error"]) {
      if (key in r && inlined[r.status as string] !== key) reasons.push(`a ${String(r.status)} task MUST NOT carry ${key}`);
    }
    if (r.status === "input_required" && !(isObject(r.inputRequests) && Object.keys(r.inputRequests).length > 0))
      reasons.push("an input_required task MUST carry a non-empty inputRequests");
    const meta = isObject(r.result) ? (r.result._meta as JsonObject | undefined) : undefined;
    if (meta && "io.modelcontextprotocol/related-task" in meta) reasons.push("the inlined result MUST NOT carry the related-task _meta");
  }
  if (reasons.length > 0) fail(`${method} result breaks the tasks extension's rules`, reasons, result);
}

/**
 * Validates a JSON-RPC error response. With `expectedId`, also checks that the error
 * echoes the request id.
 */
export function validateError(response: unknown, expectedId?: string | number): void {
  validateDef("JSONRPCErrorResponse", response);
  const r = response as JsonObject;
  if ("result" in r) fail("error response", ["a response MUST NOT carry both result and error"], response);
  if (expectedId !== undefined && r.id !== expectedId) {
    fail("error response", [`id ${JSON.stringify(r.id)} does not echo the request id ${JSON.stringify(expectedId)}`], response);
  }
}

/** Validates a server-to-client notification against the $def for its method. */
export function validateNotification(notification: unknown): void {
  if (!isObject(notification)) fail("notification", ["expected a JSON object"], notification);
  if ("id" in notification) fail("notification", ["a notification MUST NOT carry an id"], notification);
  const method = notification.method;
  const def = typeof method === "string" ? NOTIFICATION_DEFS[method] : undefined;
  if (!def) {
    fail(
      "notification",
      [`${JSON.stringify(method)} is not a server notification method; known: ${Object.keys(NOTIFICATION_DEFS).join(", ")}`],
      notification,
    );
  }
  validateDef(def, notification);
}

/** Direction-agnostic check against the schema's `JSONRPCMessage`. */
export function validateJsonRpcMessage(message: unknown): void {
  validateDef("JSONRPCMessage", message);
}

/**
 * Validates one message a server sent. For a result, pass the method of the request it
 * answers (`requestMethod`); without it only the envelope and the generic `Result` /
 * InputRequiredResult rules can be checked.
 */
export function validateServerMessage(message: unknown, requestMethod?: string): void {
  if (Array.isArray(message)) fail("server message", ["JSON-RPC batches do not exist in 2026-07-28"], message);
  if (!isObject(message)) fail("server message", ["expected a JSON object"], message);
  if ("method" in message) {
    if ("id" in message) {
      fail("server message", ["servers send no requests in 2026-07-28 (MRTR replaces them)"], message);
    }
    validateNotification(message);
    return;
  }
  if ("error" in message) {
    validateError(message);
    return;
  }
  validateDef("JSONRPCResultResponse", message);
  const result = message.result as JsonObject;
  if (requestMethod !== undefined) {
    validateResult(requestMethod, result);
  } else if (result.resultType === "input_required") {
    checkInputRequired("(unknown method)", result);
  }
}

/**
 * Validates everything one request produced on its response stream (a JSON body is a
 * stream of one): notifications first, then exactly one response, which is last.
 */
export function validateResponseStream(messages: readonly unknown[], requestMethod: string): void {
  if (messages.length === 0) fail("response stream", ["no messages"], messages);
  messages.forEach((m, i) => {
    const isLast = i === messages.length - 1;
    const isResponse = isObject(m) && !("method" in m);
    if (isResponse !== isLast) {
      fail("response stream", [`message ${i} is ${isResponse ? "a response before the end" : "not the final response"}`], messages);
    }
    validateServerMessage(m, requestMethod);
  });
}
