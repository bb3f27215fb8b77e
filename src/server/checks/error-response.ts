import type { JsonObject } from "../../protocol/wire-types";

/**
 * A JSON-RPC error response from the framework's own checks, with the request's id whenever it
 * could be read. An id that cannot be read is left out: MCP 2026-07-28 makes `id` optional in an
 * error response and forbids `null` (where plain JSON-RPC 2.0 would write `"id": null`).
 */
export function errorResponse(error: { code: number; message: string; data?: unknown }, id?: unknown): JsonObject {
  const known = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  return {
    jsonrpc: "2.0",
    ...(known && { id }),
    error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) },
  };
}
