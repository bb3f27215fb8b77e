import type { InboundRequest } from "../protocol/inbound-request";
import { ErrorCode, McpError } from "../protocol/errors";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";

/** The params of every list method as they travel: an optional string cursor. */
export const PAGINATED_PARAMS: JsonObject = { type: "object", properties: { cursor: { type: "string" } } };

/** The one page of each list, made on its first request (lists never change after bootstrap). */
const pages = new WeakMap<readonly JsonObject[], JsonObject>();

/**
 * A complete list result: every item in one page, with the app's cache hints. Lists are built
 * once at bootstrap and never paged, so any cursor is one the server never issued (-32602).
 * Every request gets the same frozen page object, so a transport may keep what it encoded of it.
 */
export function listResult(request: InboundRequest, key: string, items: readonly JsonObject[], cache: ListCacheHint): JsonObject {
  if (request.params.cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
  let page = pages.get(items);
  if (page === undefined) {
    page = Object.freeze({ resultType: "complete", [key]: items, ...cache });
    pages.set(items, page);
  }
  return page;
}
