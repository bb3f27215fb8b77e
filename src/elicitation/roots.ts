import type { InputResponseSource } from "../protocol/request-context";
import type { ListRootsRequest, ListRootsResult, Root } from "../protocol/roots-request";
import { frozenCopy } from "../protocol/frozen-copy";
import { assertInputRequest } from "./input-request-shape";
import { inputResponseEntry, invalidInputResponse, type InputAnswer } from "./input-response-entry";
import { isPlainObject } from "../protocol/plain-object";
import { ValidatedRequests } from "./validated-requests";

/** The -32602 message for any invalid roots answer. */
export const INVALID_ROOTS_RESPONSE = "Invalid roots response";

/**
 * Roots input requests (deprecated by SEP-2577 but still part of 2026-07-28). Same pattern as
 * `Elicitation`: build, ask with `Result.inputRequired`, read on retry.
 */
export const Roots = {
  /**
   * The bare `roots/list` request, `{ method: "roots/list", params: {} }` (frozen).
   *
   * @example return Result.inputRequired({ inputRequests: { client_roots: Roots.list() } });
   */
  list(): ListRootsRequest {
    return ValidatedRequests.add(frozenCopy({ method: "roots/list" as const, params: {} }));
  },

  /**
   * This round's answer under `key`: `{ status: "missing" }`, or `{ status: "answered", result }`
   * when it looks like a ListRootsResult: `roots` an array of `{ uri, name? }` with `uri` a
   * parseable `file://` URI and `name` a string. Anything else present throws `McpError` -32602
   * "Invalid roots response" with `data: { key, reason }`.
   *
   * @example const answer = Roots.response(ctx, "client_roots", Roots.list());
   */
  response(source: InputResponseSource, key: string, request: ListRootsRequest = Roots.list()): InputAnswer<{ result: ListRootsResult }> {
    assertInputRequest(request, "roots request");
    if (request.method !== "roots/list") {
      throw new TypeError(`Roots.response reads roots/list answers, not ${String(request.method)}`);
    }
    const found = inputResponseEntry(source, key, INVALID_ROOTS_RESPONSE);
    if (found === undefined) return { status: "missing" };
    const invalid = (reason: string) => invalidInputResponse(INVALID_ROOTS_RESPONSE, key, reason);
    const entry = found.entry;
    if (!isPlainObject(entry)) throw invalid("entry: not an object");
    if (!Array.isArray(entry.roots)) throw invalid("roots: not an array");
    const roots = entry.roots.map((root: unknown, index): Root => {
      if (!isPlainObject(root)) throw invalid(`roots[${index}]: not an object`);
      if (!isFileUri(root.uri)) throw invalid(`roots[${index}].uri: not a file:// URI`);
      if (root.name !== undefined && typeof root.name !== "string") throw invalid(`roots[${index}].name: not a string`);
      if (root._meta !== undefined && !isPlainObject(root._meta)) throw invalid(`roots[${index}]._meta: not an object`);
      return {
        uri: root.uri,
        ...(typeof root.name === "string" ? { name: root.name } : {}),
        ...(root._meta !== undefined ? { _meta: structuredClone(root._meta) } : {}),
      };
    });
    return { status: "answered", result: { roots } };
  },
};

function isFileUri(uri: unknown): uri is string {
  if (typeof uri !== "string" || !uri.startsWith("file://")) return false;
  try {
    return new URL(uri).protocol === "file:";
  } catch {
    return false;
  }
}
