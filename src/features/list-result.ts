import type { InboundRequest } from "../protocol/inbound-request";
import { ErrorCode, McpError } from "../protocol/errors";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";
import { INVALID_CURSOR_MESSAGE, listDigestOf, type ListCursors } from "./list-cursor";
import { pageOf } from "./list-page";
import { keepText } from "../protocol/encoded-json";

/** The params of every list method as they travel: an optional string cursor. */
export const PAGINATED_PARAMS: JsonObject = { type: "object", properties: { cursor: { type: "string" } } };

/** Default entries per list page (`McpAppOptions.listPageSize`). */
export const DEFAULT_LIST_PAGE_SIZE = 100;

/** How the app pages its lists: the cache hints of every page, the page size, the cursors. */
export interface ListPaging {
  readonly cache: ListCacheHint;
  readonly pageSize: number;
  /** Without cursors (a table built without a sealer) every list is one page and any cursor is refused. */
  readonly cursors?: ListCursors;
}

/** Pages that depend on nothing but the list (the only page, the last page), made once each. */
const kept = new WeakMap<readonly JsonObject[], Map<string, JsonObject>>();
/** The entries of each page that has a next one, by list and offset: one frozen array each, its JSON text kept. */
const keptPageItems = new WeakMap<readonly JsonObject[], Map<number, readonly JsonObject[]>>();

/**
 * The entries of the page at `offset` of a list with more pages, the same frozen array for every
 * request, its JSON text kept (`keepText`): the result around it is the caller's (its cursor),
 * but a transport encodes the entries once.
 */
function keptItems(entries: readonly JsonObject[], offset: number, items: readonly JsonObject[]): readonly JsonObject[] {
  let pages = keptPageItems.get(entries);
  if (pages === undefined) keptPageItems.set(entries, (pages = new Map()));
  let page = pages.get(offset);
  if (page === undefined) {
    page = keepText(Object.freeze(items));
    pages.set(offset, page);
  }
  return page;
}

/**
 * A complete list result: the page of `entries` (already in their stable order, already filtered
 * to what this caller may see) that the request's cursor names, with the app's cache hints on
 * every page, and `nextCursor` while more follow. A list that fits one page, and the last page of
 * a longer one, is the same frozen object for every request, so a transport may keep what it
 * encoded of it; a page with a `nextCursor` is made per request (the cursor is the caller's)
 * around the same frozen array of entries, whose JSON text is kept.
 */
export function listResult(request: InboundRequest, key: string, entries: readonly JsonObject[], paging: ListPaging): JsonObject {
  const { cursors, pageSize, cache } = paging;
  const cursor = request.params.cursor;
  const size = cursors === undefined ? Infinity : pageSize;
  if (cursor !== undefined && cursors === undefined) throw new McpError(ErrorCode.InvalidParams, INVALID_CURSOR_MESSAGE);
  const digest = cursors !== undefined && (cursor !== undefined || entries.length > size) ? listDigestOf(entries) : "";
  const offset = cursor === undefined ? 0 : cursors!.open(cursor, request.method, request.principal, digest, entries.length);
  const { items, next } = pageOf(entries, offset, size);
  if (next !== undefined) {
    const nextCursor = cursors!.seal(request.method, request.principal, digest, next);
    return { resultType: "complete", [key]: keptItems(entries, offset, items), nextCursor, ...cache };
  }
  let pages = kept.get(entries);
  if (pages === undefined) kept.set(entries, (pages = new Map()));
  const slot = offset === 0 ? key : `${key}@${offset}`;
  let page = pages.get(slot);
  if (page === undefined) {
    page = Object.freeze({ resultType: "complete", [key]: items, ...cache });
    pages.set(slot, page);
  }
  return page;
}
