/**
 * Where a request's context carries the lifetime, in seconds, that state sealed for it gets when
 * the seal or open names no `ttl` (when longer than the sealer's default). A 2025 session's rounds
 * set it to outlast their wait for the client's answer: that state never leaves the server, and an
 * answer the session accepts must find it open. Internal: set by the dispatcher, read by the sealer.
 */
export const STATE_LIFETIME: unique symbol = Symbol("roundtrip-mcp.stateLifetime");

/** The lifetime `binding` carries (see STATE_LIFETIME), or undefined. */
export function stateLifetimeOf(binding: object): number | undefined {
  return (binding as { readonly [STATE_LIFETIME]?: number })[STATE_LIFETIME];
}
