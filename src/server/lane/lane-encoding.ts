import { SERVER_INFO_META_KEY } from "../request/sdk-module";
import { isAllowedBy } from "../../elicitation/capabilities";
import type { DirectAnswer, MethodSpec } from "../../features/feature-module";
import type { InputRequest } from "../../protocol/input-request";
import { encodedTextOf } from "../../protocol/encoded-json";
import { isPlainObject } from "../../protocol/plain-object";
import type { ClientCapabilities, JsonObject } from "../../protocol/wire-types";

// How the fast lane encodes a dispatcher result exactly as the SDK path does (SDK 2.4.0,
// \`encodeResult\` of the 2026-07-28 codec and the input-required seam of \`Server\`), for the results
// it can encode without the SDK's schemas; the others are left to the SDK path (undefined).

/** A method the lane answers: its spec declares how the SDK path writes its results (`MethodSpec.direct`). */
export type DirectMethod = MethodSpec & { readonly direct: DirectAnswer };

/** Keys of a tools/call result in the order the SDK's result schema writes them. */
const TOOL_RESULT_KEYS = ["_meta", "content", "structuredContent", "isError"];

/**
 * The SDK's encoding of a handler result (`encodeResult`: resultType, cache fields, serverInfo,
 * each appended when absent), as the JSON of the response's `result`; undefined when the result
 * needs a step the lane does not replicate (the SDK path then encodes it). The response is
 * `{"result":…,"jsonrpc":"2.0","id":…}` (`responseText`). For a complete result the text depends
 * on the method and the result alone, never on the client's capabilities.
 */
export function encodeResult(
  spec: DirectMethod,
  capabilities: ClientCapabilities,
  result: JsonObject,
  serverInfoMeta: string,
): string | undefined {
  if (!isPlainObject(result)) return undefined;
  const resultType = result.resultType;
  const { cacheable, result: schema } = spec.direct;
  let body: string;
  if (resultType === "input_required") {
    if (!spec.inputRequired || !inputRequestsCovered(result, capabilities)) return undefined;
    body = inputRequiredText(result);
  } else if (resultType === undefined || resultType === "complete") {
    if (schema === "tool-result") {
      const ordered = toolResultInSchemaOrder(result);
      if (ordered === undefined) return undefined;
      result = ordered;
    }
    if (schema === "tool-list" && Array.isArray(result.tools) && result.tools.some((t) => isPlainObject(t) && "execution" in t))
      return undefined;
    if (isPlainObject(result.capabilities) && "tasks" in result.capabilities) return undefined;
    // A tool's result carries nothing kept: encoded at once (the common call pays no lookups).
    body = schema === "tool-result" ? JSON.stringify(result) : completeText(result);
    let tail = resultType === undefined ? ',"resultType":"complete"' : "";
    if (cacheable) {
      if ("ttlMs" in result || "cacheScope" in result) {
        if (!validTtl(result.ttlMs) || !validScope(result.cacheScope)) return undefined;
      } else {
        tail += ',"ttlMs":0,"cacheScope":"private"';
      }
    }
    if (tail.length > 0) body = body.length === 2 ? `{${tail.slice(1)}}` : `${body.slice(0, -1)}${tail}}`;
  } else {
    return undefined;
  }
  const meta = result._meta;
  if (meta === undefined) {
    body = body.length === 2 ? `{"_meta":${serverInfoMeta}}` : `${body.slice(0, -1)},"_meta":${serverInfoMeta}}`;
  } else if (isPlainObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) {
    return undefined;
  }
  return body;
}

/** A JSON-RPC response with an encoded result, keys in the SDK path's order. */
export function responseText(id: string | number, result: string): string {
  return responseHead(result) + responseTail(id);
}

/** The part of a response before its id (the same for every request answered with this result). */
export function responseHead(result: string): string {
  return `{"result":${result},"jsonrpc":"2.0","id":`;
}

/** The part of a response from its id on. */
export function responseTail(id: string | number): string {
  return `${JSON.stringify(id)}}`;
}

/**
 * JSON.stringify(result) of an `input_required` result, with the text of every input request
 * encoded once at bootstrap (a static question, `encodeOnce`) spliced in rather than encoded again.
 */
function inputRequiredText(result: JsonObject): string {
  const requests = result.inputRequests;
  if (!isPlainObject(requests) || "toJSON" in result || "toJSON" in requests) return JSON.stringify(result);
  return keptValuesText(result, requests);
}

/**
 * JSON.stringify(result) of a complete result, with the text of a value kept by identity (a list
 * page's entries, `keepText`) spliced in rather than encoded again.
 */
function completeText(result: JsonObject): string {
  let kept = false;
  for (const key in result) if (encodedTextOf(result[key]) !== undefined) kept = true;
  return kept && !("toJSON" in result) ? keptValuesText(result) : JSON.stringify(result);
}

/**
 * JSON.stringify(object) (no `toJSON` of its own), each value whose text is kept (`encodedTextOf`)
 * spliced in, and the values of `nested` (one of its values, no `toJSON` either) likewise.
 */
function keptValuesText(object: JsonObject, nested?: JsonObject): string {
  let text = "{";
  for (const key of Object.keys(object)) {
    const value = object[key];
    const part =
      encodedTextOf(value) ??
      (nested !== undefined && value === nested ? keptValuesText(nested) : (JSON.stringify(value) as string | undefined));
    if (part === undefined) continue; // what JSON.stringify leaves out (undefined)
    text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${part}`;
  }
  return `${text}}`;
}

function validTtl(value: unknown): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function validScope(value: unknown): boolean {
  return value === "public" || value === "private";
}

/**
 * A tools/call result as the SDK's result schema writes it (a loose object: its own keys
 * `_meta`, `content`, `structuredContent`, `isError` first, in that order, then the others in
 * theirs), when that schema would pass it and change nothing else: `content` an array of plain
 * text blocks `{type: "text", text}`, `isError` a boolean when present, no `_meta`. Undefined
 * for anything else (the SDK path then validates and encodes it).
 */
function toolResultInSchemaOrder(result: JsonObject): JsonObject | undefined {
  const { content, isError } = result;
  if (result._meta !== undefined || !Array.isArray(content) || (isError !== undefined && typeof isError !== "boolean")) return undefined;
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") return undefined;
    let keys = 0;
    for (const key in block) {
      if ((keys === 0 && key !== "type") || (keys === 1 && key !== "text") || keys > 1) return undefined;
      keys++;
    }
  }
  let next = 0;
  let inOrder = true;
  let extra = false;
  for (const key in result) {
    const at = TOOL_RESULT_KEYS.indexOf(key);
    if (at < 0) extra = true;
    else if (extra || at < next) inOrder = false;
    else next = at + 1;
  }
  if (inOrder) return result;
  const ordered: JsonObject = {};
  for (const key of TOOL_RESULT_KEYS) if (key in result) ordered[key] = result[key];
  for (const key in result) if (!TOOL_RESULT_KEYS.includes(key)) ordered[key] = result[key];
  return ordered;
}

/**
 * The SDK's check of an `input_required` result (`_invokeInputRequiredCapableHandler`), on its
 * passing side only: at least one input request or a requestState, and every embedded request of
 * a kind 2026-07-28 defines, allowed by the client's capabilities as `elicitation/capabilities.ts`
 * reads them (never more lenient than the SDK: where the two differ, the SDK path writes it).
 */
function inputRequestsCovered(result: JsonObject, declared: ClientCapabilities): boolean {
  const requests = result.inputRequests;
  if (requests === undefined || requests === null) return typeof result.requestState === "string";
  if (!isPlainObject(requests)) return false;
  let count = 0;
  for (const key in requests) {
    count++;
    const entry = requests[key];
    if (!isInputRequest(entry) || !isAllowedBy(entry, declared)) return false;
  }
  return count > 0 || typeof result.requestState === "string";
}

/** An input request of a kind 2026-07-28 defines, its params an object when present. */
function isInputRequest(entry: unknown): entry is InputRequest {
  if (!isPlainObject(entry) || (entry.params !== undefined && !isPlainObject(entry.params))) return false;
  return entry.method === "elicitation/create" || entry.method === "sampling/createMessage" || entry.method === "roots/list";
}
