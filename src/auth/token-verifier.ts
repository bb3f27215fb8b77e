import type { Authorization } from "../protocol/authorization";

/**
 * Verifies one bearer access token for this resource server: `jwtVerifier` (RFC 9068 JWTs, keys
 * from the authorization server's JWKS), `introspectionVerifier` (RFC 7662, opaque tokens), or
 * your own. Resolve with what the token grants; reject with an `InvalidTokenError` (a 401
 * `invalid_token` challenge) when it is not valid for `resource`. Any other rejection is the
 * verifier failing (the authorization server unreachable): logged, and answered 503.
 *
 * @example const verifier: TokenVerifier = { verify: async (token, { resource }) => lookUp(token, resource) };
 */
export interface TokenVerifier {
  /** The issuer it trusts, listed as the authorization server in the protected resource metadata. */
  readonly issuer?: string;
  verify(token: string, context: VerifyContext): Promise<Authorization>;
}

/** What a verifier checks a token against. */
export interface VerifyContext {
  /** The canonical URI of this MCP server (RFC 8707): the token's audience must contain it. */
  readonly resource: string;
}

/**
 * The token is not valid here (bad signature, expired, another audience or issuer, unknown key,
 * an algorithm not allowed, inactive). `reason` goes to the app's log only; it never carries
 * token, claim or key material. The client is told only that the token is invalid.
 */
export class InvalidTokenError extends Error {
  override readonly name = "InvalidTokenError";
  constructor(readonly reason: string) {
    super(`invalid access token: ${reason}`);
  }
}
