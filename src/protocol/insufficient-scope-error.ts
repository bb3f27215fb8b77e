import { ErrorCode, McpError } from "./errors";

/**
 * The request's token lacks a scope the operation needs. Over HTTP it is answered 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="<every scope needed>"`; elsewhere
 * it is the JSON-RPC error -32003 with `data.requiredScopes`.
 *
 * @example throw new InsufficientScopeError(["preferences:admin"]);
 */
export class InsufficientScopeError extends McpError {
  constructor(readonly requiredScopes: readonly string[]) {
    super(ErrorCode.InsufficientScope, `Insufficient scope: this operation needs ${requiredScopes.join(" ")}`, {
      requiredScopes: [...requiredScopes],
    });
  }
}
