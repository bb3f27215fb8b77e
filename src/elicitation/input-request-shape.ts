import { validateFormSchema } from "../schema/form-schema-subset";
import { InputRequestError } from "./input-request-error";
import { navigableUrlProblem } from "./navigable-url";
import { isPlainObject } from "../protocol/plain-object";
import { ValidatedRequests } from "./validated-requests";

const INCLUDE_CONTEXT = ["none", "thisServer", "allServers"];

/**
 * Asserts that `request` is a bare input request of one of the three kinds, well formed:
 * `elicitation/create` (form with a subset-valid schema, `mode` "form" or absent; or URL with a
 * navigable http(s) URL), `sampling/createMessage` (non-empty messages, positive integer
 * maxTokens) or `roots/list` (params absent or `_meta` only). No `jsonrpc` or `id`; an
 * `elicitationId` only on a URL question. Throws `InputRequestError` (or `ElicitationSchemaError` for a form schema).
 * Requests made by the builders were checked when built and pass at once.
 *
 * @example assertInputRequest(Roots.list());
 */
export function assertInputRequest(request: unknown, label = "input request"): void {
  if (ValidatedRequests.has(request)) return;
  const fail = (problem: string): never => {
    throw new InputRequestError(`Invalid ${label}: ${problem}`);
  };
  if (!isPlainObject(request)) return fail("it must be a plain object { method, params }");
  const extra = Object.keys(request).find((key) => key !== "method" && key !== "params");
  if (extra !== undefined) fail(`"${extra}" is not allowed; input requests are bare { method, params } (no jsonrpc, no id)`);
  let problem: string | undefined;
  switch (request.method) {
    case "elicitation/create":
      problem = elicitParamsProblem(request.params);
      break;
    case "sampling/createMessage":
      problem = samplingParamsProblem(request.params);
      break;
    case "roots/list":
      problem = rootsParamsProblem(request.params);
      break;
    default:
      problem = 'method must be "elicitation/create", "sampling/createMessage" or "roots/list"';
  }
  if (problem !== undefined) fail(problem);
}

/** Why these `elicitation/create` params are malformed (schema errors are thrown), or undefined. */
export function elicitParamsProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return "params must be an object";
  const messageProblem = nonEmptyMessageProblem(params.message);
  if (params.mode === undefined || params.mode === "form") {
    const extra = Object.keys(params).find((key) => !["mode", "message", "requestedSchema", "_meta"].includes(key));
    if (extra !== undefined) return `"${extra}" is not allowed in form-mode params`;
    if (messageProblem !== undefined) return messageProblem;
    validateFormSchema(params.requestedSchema);
    return undefined;
  }
  if (params.mode === "url") {
    const extra = Object.keys(params).find((key) => !["mode", "message", "url", "elicitationId", "_meta"].includes(key));
    if (extra !== undefined) return `"${extra}" is not allowed in url-mode params`;
    return messageProblem ?? navigableUrlProblem(params.url) ?? elicitationIdProblem(params.elicitationId);
  }
  return 'mode must be "form" or "url"';
}

/**
 * Why a URL question's own `elicitationId` is unusable, or undefined (absent: the framework adds
 * one). Correlation across rounds still belongs in `requestState`; the id is for hosts that track
 * URL questions by it (2025-11-25 requires it).
 */
function elicitationIdProblem(id: unknown): string | undefined {
  if (id === undefined) return undefined;
  return typeof id === "string" && /^[\x21-\x7e]{1,128}$/.test(id)
    ? undefined
    : "elicitationId must be 1 to 128 visible ASCII characters (or left out: the framework adds a stable one)";
}

/** Why these `sampling/createMessage` params are malformed, or undefined. Deliberately minimal. */
export function samplingParamsProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return "params must be an object";
  const messages = params.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "messages must be a non-empty array";
  for (const [index, message] of messages.entries()) {
    if (!isPlainObject(message)) return `messages[${index}] must be an object { role, content }`;
    if (message.role !== "user" && message.role !== "assistant") return `messages[${index}].role must be "user" or "assistant"`;
    if (!isContent(message.content)) return `messages[${index}].content must be a content block or an array of them`;
  }
  const maxTokens = params.maxTokens;
  if (typeof maxTokens !== "number" || !Number.isSafeInteger(maxTokens) || maxTokens <= 0) {
    return "maxTokens must be a positive integer";
  }
  if (params.includeContext !== undefined && !INCLUDE_CONTEXT.includes(params.includeContext as string)) {
    return 'includeContext must be "none", "thisServer" or "allServers"';
  }
  if (params.systemPrompt !== undefined && typeof params.systemPrompt !== "string") return "systemPrompt must be a string";
  if (params.temperature !== undefined && !(typeof params.temperature === "number" && Number.isFinite(params.temperature))) {
    return "temperature must be a number";
  }
  const stops = params.stopSequences;
  if (stops !== undefined && !(Array.isArray(stops) && stops.every((stop) => typeof stop === "string"))) {
    return "stopSequences must be an array of strings";
  }
  if (params.tools !== undefined && !(Array.isArray(params.tools) && params.tools.every(isPlainObject))) {
    return "tools must be an array of tool definitions";
  }
  for (const key of ["toolChoice", "metadata", "modelPreferences", "_meta"]) {
    if (params[key] !== undefined && !isPlainObject(params[key])) return `${key} must be an object`;
  }
  return undefined;
}

/** Why these `roots/list` params are malformed (only `_meta` may appear), or undefined. */
export function rootsParamsProblem(params: unknown): string | undefined {
  if (params === undefined) return undefined;
  if (!isPlainObject(params)) return "params must be an object";
  const extra = Object.keys(params).find((key) => key !== "_meta");
  if (extra !== undefined) return `"${extra}" is not allowed; roots/list params may only carry _meta`;
  if (params._meta !== undefined && !isPlainObject(params._meta)) return "_meta must be an object";
  return undefined;
}

/** Why a prompt message is unusable, or undefined. */
export function nonEmptyMessageProblem(message: unknown): string | undefined {
  return typeof message === "string" && message.trim().length > 0 ? undefined : "message must be a non-empty string";
}

/** A sampling content block ({ type, ... }) or a non-empty array of them. */
export function isContent(content: unknown): boolean {
  const isBlock = (block: unknown): boolean =>
    isPlainObject(block) && typeof block.type === "string" && (block.type !== "text" || typeof block.text === "string");
  return Array.isArray(content) ? content.length > 0 && content.every(isBlock) : isBlock(content);
}
