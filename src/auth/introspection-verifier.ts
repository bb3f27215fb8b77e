import type { Authorization } from "../protocol/authorization";
import type { JsonObject } from "../protocol/wire-types";
import { discoverMetadata } from "./authorization-server-metadata";
import { authorizationOf } from "./jwt-verifier";
import { secureUrl } from "./secure-url";
import { InvalidTokenError, type TokenVerifier, type VerifyContext } from "./token-verifier";

export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer identifier. */
  issuer: string;
  /** The introspection endpoint; default the `introspection_endpoint` of the issuer's discovered metadata. */
  endpoint?: string;
  /**
   * This resource server's client credentials at the authorization server, sent in HTTP Basic
   * (RFC 7662 section 2.1), each form-urlencoded first as RFC 6749 section 2.3.1 says (a space is
   * `+`, a `+` is `%2B`). Non-empty strings.
   */
  clientId: string;
  clientSecret: string;
  /** Audience the token must contain. Default: the resource's canonical URI. */
  audience?: string;
  /** Clock skew tolerated on `exp` and `nbf`, in seconds. Default 5. */
  leewaySeconds?: number;
  /** Timeout of each request, in milliseconds. Default 5,000. */
  timeoutMs?: number;
  /** Development only: accept an http endpoint that is not on loopback. */
  allowInsecure?: boolean;
}

/**
 * Verifies opaque access tokens by asking the authorization server (RFC 7662 token introspection):
 * the token must be `active`, for this resource (`aud`), from the issuer (`iss`, when the answer
 * names one), and within `exp`/`nbf`. Every request asks anew (no cache: a revoked token is
 * refused at once).
 *
 * @example introspectionVerifier({ issuer: "https://auth.example.com", clientId: "mcp-server", clientSecret: process.env.INTROSPECTION_SECRET! })
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const issuer = options.issuer;
  secureUrl(issuer, "introspectionVerifier: issuer", options.allowInsecure);
  const timeoutMs = options.timeoutMs ?? 5000;
  const leeway = options.leewaySeconds ?? 5;
  let endpoint: Promise<string> | undefined;
  const endpointOf = () => {
    endpoint ??= (async () => {
      const found =
        options.endpoint ?? (await discoverMetadata(issuer, { allowInsecure: options.allowInsecure, timeoutMs })).introspection_endpoint;
      if (typeof found !== "string")
        throw new Error(`the metadata of issuer ${issuer} has no introspection_endpoint; give introspectionVerifier the endpoint option`);
      return secureUrl(found, "introspection_endpoint", options.allowInsecure).href;
    })();
    endpoint.catch(() => (endpoint = undefined));
    return endpoint;
  };
  const basic = Buffer.from(`${formEncoded(options.clientId, "clientId")}:${formEncoded(options.clientSecret, "clientSecret")}`).toString(
    "base64",
  );
  return {
    issuer,
    async verify(token: string, context: VerifyContext): Promise<Authorization> {
      const response = await fetch(await endpointOf(), {
        method: "POST",
        headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`token introspection at ${issuer} answered HTTP ${response.status}`);
      }
      const answer = (await response.json()) as JsonObject;
      if (answer.active !== true) throw new InvalidTokenError("inactive");
      const now = Date.now() / 1000;
      if (typeof answer.exp !== "number") throw new InvalidTokenError("no exp");
      if (answer.exp + leeway <= now) throw new InvalidTokenError("expired");
      if (typeof answer.nbf === "number" && answer.nbf - leeway > now) throw new InvalidTokenError("not yet valid (nbf)");
      if (answer.iss !== undefined && answer.iss !== issuer) throw new InvalidTokenError("another issuer");
      const audience = options.audience ?? context.resource;
      const aud = answer.aud;
      if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) throw new InvalidTokenError("another audience");
      return authorizationOf(answer, issuer);
    },
  };
}

/** Under the `u` flag a surrogate pair is one code point: only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * A client credential as the username or password of HTTP Basic: `application/x-www-form-urlencoded`
 * (RFC 6749 section 2.3.1 and appendix B), as the platform's URLSearchParams writes it: a space is
 * `+`, every byte outside `A-Za-z0-9*-._` of its UTF-8 is `%XX`. An authorization server decodes it
 * back; one that compares the encoded text refuses any other encoding (`encodeURIComponent` writes
 * a space as `%20` and leaves `!'()~` as they are).
 */
function formEncoded(value: unknown, option: string): string {
  if (typeof value !== "string" || value === "" || LONE_SURROGATE.test(value)) {
    throw new TypeError(
      `introspectionVerifier: option \`${option}\` must be a non-empty string (without lone surrogates): the ${option === "clientId" ? "client id" : "client secret"} the authorization server registered for this resource server`,
    );
  }
  return new URLSearchParams({ "": value }).toString().slice(1);
}
