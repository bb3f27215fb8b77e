import type { JsonObject } from "./wire-types";

/**
 * What a verified access token granted one request: its scopes (as granted, before the app's
 * scope hierarchy is applied) and its verified claims. Absent on a transport that does not
 * authorize by OAuth (stdio, `app.connect()` without scopes, `listen()` without `auth`): such a
 * request is not restricted by scopes.
 *
 * @example const canWrite = ctx.authorization?.scopes.includes("preferences:admin") ?? true;
 */
export interface Authorization {
  /** The scopes the token grants, as the authorization server wrote them. */
  readonly scopes: readonly string[];
  /** The token's verified claims (a JWT's payload, or an introspection answer). Never log them. */
  readonly claims: Readonly<JsonObject>;
  /** The `iss` the token was verified for. */
  readonly issuer?: string;
  /** The `sub` of the token, when it has one. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, or `azp`), when it says. */
  readonly clientId?: string;
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
}
