import type { JsonObject } from "../protocol/wire-types";

/**
 * A JSON-RPC error response from the framework's own checks. `id` is left out (as the 2026-07-28
 * schema allows) when the request's id is not known.
 */
export function errorResponse(error: { code: number; message: string; data?: unknown }, id?: unknown): JsonObject {
  const known = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  return { jsonrpc: "2.0", ...(known && { id }), error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } };
}
