import type { JsonObject } from "../protocol/wire-types";
import type { CallOptions } from "./flow-options";
import type { JsonRpcResponse } from "./wire-messages";

/** Options of `client.listAll`. */
export interface ListAllOptions extends CallOptions {
  /** Most pages to follow before failing (a server whose cursors never end); default 1,000. */
  maxPages?: number;
  /** The list's own params, sent with every page (`resources/directory/read`'s `uri`); the cursor is added to them. */
  params?: JsonObject;
}

/** Every page of one list, walked: the entries of all pages in order, and each page's result as it came. */
export interface ListedPages {
  readonly items: JsonObject[];
  readonly pages: JsonObject[];
}

/** Follows `nextCursor` from the first page to the last; throws on an error answer or past `maxPages`. */
export async function walkPages(
  raw: (params: JsonObject, options: CallOptions) => Promise<JsonRpcResponse>,
  method: string,
  options: ListAllOptions,
): Promise<ListedPages> {
  const { maxPages = 1000, params = {}, ...callOptions } = options;
  const items: JsonObject[] = [];
  const pages: JsonObject[] = [];
  let cursor: string | undefined;
  do {
    if (pages.length === maxPages)
      throw new Error(`client.listAll("${method}"): still a nextCursor after ${maxPages} pages (raise maxPages)`);
    const response = await raw(cursor === undefined ? { ...params } : { ...params, cursor }, callOptions);
    if (response.error !== undefined || response.result === undefined)
      throw new Error(`client.listAll("${method}"): page ${pages.length + 1} answered ${JSON.stringify(response.error ?? response)}`);
    const page = response.result as JsonObject;
    pages.push(page);
    // A list page holds one array, its entries (tools, prompts, resources, resourceTemplates, ...).
    const key = Object.keys(page).find((k) => Array.isArray(page[k]));
    const entries = key === undefined ? undefined : page[key];
    if (Array.isArray(entries)) items.push(...(entries as JsonObject[]));
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
  } while (cursor !== undefined);
  return { items, pages };
}
