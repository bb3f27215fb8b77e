import type { InboundRequest } from "../protocol/inbound-request";
import { ErrorCode, McpError } from "../protocol/errors";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";

/** The params of every list method as they travel: an optional string cursor. */
export const PAGINATED_PARAMS: JsonObject = { type: "object", properties: { cursor: { type: "string" } } };

/**
 * A complete list result: every item in one page, with the app's cache hints. Lists are built
 * once at bootstrap and never paged, so any cursor is one the server never issued (-32602).
 */
export function listResult(request: InboundRequest, key: string, items: readonly JsonObject[], cache: ListCacheHint): JsonObject {
  if (request.params.cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
  return { resultType: "complete", [key]: items, ...cache };
}
