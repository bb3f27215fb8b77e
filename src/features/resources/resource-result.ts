import { clip } from "../../protocol/clip";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { CacheScope, JsonObject } from "../../protocol/wire-types";
import { OutputSchemaViolation } from "../output-schema-violation";

/** Longest uri a not-found error repeats in its `data`. */
const MAX_ECHOED_URI = 2048;

/** -32602 "Resource not found" with `data.uri`; the message clips the uri, and an overlong one is not repeated. */
export function resourceNotFound(uri: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Resource not found: ${clip(uri)}`, uri.length <= MAX_ECHOED_URI ? { uri } : undefined);
}

/**
 * A resource's return value as a ReadResourceResult with cache hints: a string is text, bytes are a
 * blob, `{ text }`/`{ blob }` objects or arrays of them are contents. `undefined`, `null` or nothing
 * means the resource does not exist (-32602 with `data.uri`).
 */
export function shapeResourceResult(
  def: { where: string; mimeType?: string; ttlMs: number; cacheScope: CacheScope },
  uri: string,
  value: unknown,
): JsonObject {
  const mime = def.mimeType === undefined ? {} : { mimeType: def.mimeType };
  let contents: JsonObject[];
  if (value === undefined || value === null) contents = [];
  else if (typeof value === "string") contents = [{ uri, ...mime, text: value }];
  else if (value instanceof Uint8Array) contents = [{ uri, ...mime, blob: Buffer.from(value).toString("base64") }];
  else if (typeof value === "object" && "contents" in value && Array.isArray(value.contents)) contents = value.contents;
  else if (Array.isArray(value)) contents = value;
  else contents = [value as JsonObject];
  if (contents.length === 0) throw resourceNotFound(uri);
  contents = contents.map((c) => {
    if (!c || typeof c !== "object" || (typeof c.text !== "string" && typeof c.blob !== "string")) {
      throw new OutputSchemaViolation(`${def.where} returned resource contents without a text or blob string`);
    }
    return { uri, ...mime, ...c };
  });
  return { resultType: "complete", contents, ttlMs: def.ttlMs, cacheScope: def.cacheScope };
}
