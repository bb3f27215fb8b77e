/** JSON-RPC and MCP 2026-07-28 error codes the framework emits. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** A call over its rate limit (`data`: `{ limit, windowMs, retryAfter, retryAfterMs }`); HTTP 429 with `Retry-After`. */
  RateLimited: -32010,
  /** The caller's token lacks a scope the operation needs (HTTP: 403 `insufficient_scope`). */
  InsufficientScope: -32003,
} as const;

/**
 * A typed protocol error. Thrown from a tool, resource, prompt or middleware, it reaches the
 * client as the JSON-RPC error `{ code, message, data }`, with the message and data verbatim
 * (never put secrets in them) and `data` left out when undefined. The official SDK rewrites two
 * codes, in both protocol eras: -32002 (the old "resource not found", gone from 2026-07-28)
 * becomes -32602, and a code that is not a safe integer becomes -32603. Over HTTP the response
 * status is 200, except for -32021 (a missing client capability), which is 400, and -32010 (a
 * rate limit), which is 429 with `Retry-After` from `data.retryAfter`.
 *
 * @example throw new McpError(ErrorCode.InvalidParams, "Unknown city", { city });
 */
export class McpError extends Error {
  override readonly name = "McpError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The JSON-RPC `error` member this error serializes to. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** True for an `McpError`, including one from another copy of this package. */
export function isMcpError(value: unknown): value is McpError {
  return (
    value instanceof McpError ||
    (value instanceof Error && value.name === "McpError" && typeof (value as { code?: unknown }).code === "number")
  );
}
