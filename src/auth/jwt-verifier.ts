import type * as Jose from "jose";
import type { JWTPayload } from "jose";
import type { Authorization } from "../protocol/authorization";
import type { JsonObject } from "../protocol/wire-types";
import { discoverMetadata } from "./authorization-server-metadata";
import { secureUrl } from "./secure-url";
import { InvalidTokenError, type TokenVerifier, type VerifyContext } from "./token-verifier";

/** Asymmetric JWS algorithms only: never `none`, never an HMAC secret taken from a public JWKS. */
export const ASYMMETRIC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"] as const;

export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier, exactly as its metadata and tokens spell it. */
  issuer: string;
  /** Audience the token must contain. Default: the resource's canonical URI (RFC 8707). */
  audience?: string;
  /** The JWKS location; default the `jwks_uri` of the issuer's discovered metadata. */
  jwksUri?: string;
  /** Accepted algorithms, a subset of `ASYMMETRIC_ALGORITHMS`. Default all of them. */
  algorithms?: readonly string[];
  /** Clock skew tolerated on `exp` and `nbf`, in seconds. Default 5. */
  leewaySeconds?: number;
  /**
   * The JWT `typ` header required: RFC 9068's `at+jwt` (also as `application/at+jwt`) by default;
   * null accepts any (Microsoft Entra's v2 tokens say `JWT`).
   */
  tokenType?: string | null;
  /** Least time between two JWKS fetches for an unknown `kid`, in milliseconds. Default 30,000. */
  jwksCooldownMs?: number;
  /** How long fetched keys are trusted before a refresh, in milliseconds. Default 600,000. */
  jwksMaxAgeMs?: number;
  /** Timeout of each fetch (discovery, JWKS), in milliseconds. Default 5,000. */
  timeoutMs?: number;
  /** Development only: accept an http issuer that is not on loopback. */
  allowInsecure?: boolean;
}

/**
 * Verifies JWT access tokens (RFC 9068) with `jose`: the issuer's metadata is discovered (RFC 8414,
 * then OpenID Connect; its `issuer` must be the configured one), keys come from its `jwks_uri`
 * (cached; refetched on an unknown `kid`, at most once per cooldown), and a token must be signed
 * with an allowed asymmetric algorithm, name the issuer in `iss`, contain the resource in `aud`,
 * carry `exp` and be within `exp`/`nbf` (with a small leeway).
 *
 * @example listen({ auth: { resource: "https://mcp.example.com/mcp", verifier: jwtVerifier({ issuer: "https://auth.example.com" }) } })
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const issuer = options.issuer;
  secureUrl(issuer, "jwtVerifier: issuer", options.allowInsecure);
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  for (const alg of algorithms) {
    if (!(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg))
      throw new TypeError(
        `jwtVerifier: algorithm ${JSON.stringify(alg)} is not allowed; use asymmetric ones: ${ASYMMETRIC_ALGORITHMS.join(", ")}`,
      );
  }
  const leeway = options.leewaySeconds ?? 5;
  if (!Number.isFinite(leeway) || leeway < 0 || leeway > 300) throw new RangeError("jwtVerifier: leewaySeconds must be from 0 to 300");
  const tokenType = options.tokenType === undefined ? "at+jwt" : options.tokenType;
  const timeoutMs = options.timeoutMs ?? 5000;
  // Loaded by the first verifier made, not with the package: an app without OAuth never loads jose.
  const jose = loadJose();
  let keys: Promise<ReturnType<typeof jose.createRemoteJWKSet>> | undefined;
  const keySet = () => {
    keys ??= (async () => {
      const uri = options.jwksUri ?? (await discoverMetadata(issuer, { allowInsecure: options.allowInsecure, timeoutMs })).jwks_uri;
      if (typeof uri !== "string") throw new Error(`the metadata of issuer ${issuer} has no jwks_uri; give jwtVerifier the jwksUri option`);
      return jose.createRemoteJWKSet(secureUrl(uri, "jwks_uri", options.allowInsecure), {
        cooldownDuration: options.jwksCooldownMs ?? 30_000,
        cacheMaxAge: options.jwksMaxAgeMs ?? 600_000,
        timeoutDuration: timeoutMs,
      });
    })();
    // A failed discovery is tried again on the next token.
    keys.catch(() => (keys = undefined));
    return keys;
  };
  return {
    issuer,
    async verify(token: string, context: VerifyContext): Promise<Authorization> {
      const jwks = await keySet();
      let payload: JWTPayload;
      try {
        ({ payload } = await jose.jwtVerify(token, jwks, {
          issuer,
          audience: options.audience ?? context.resource,
          algorithms,
          clockTolerance: leeway,
          requiredClaims: ["exp"],
          ...(tokenType !== null && { typ: tokenType }),
        }));
      } catch (error) {
        throw tokenProblem(error, jose.errors);
      }
      return authorizationOf(payload as JsonObject, issuer);
    },
  };
}

/** A jose failure as an invalid token (with a reason free of token material), or the verifier's own failure. */
function tokenProblem(error: unknown, errors: typeof Jose.errors): unknown {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return error;
  if (error instanceof errors.JWTClaimValidationFailed)
    return new InvalidTokenError(`${error.code} (claim ${error.claim}: ${error.reason})`);
  if (error instanceof errors.JOSEError) return new InvalidTokenError(error.code);
  // TypeError and friends from jose for a malformed token.
  if (error instanceof TypeError) return new InvalidTokenError("malformed token");
  return error;
}

/** What the verified claims grant: scopes from `scope` (space-separated) or `scp` (Entra, Okta). */
export function authorizationOf(claims: JsonObject, issuer: string | undefined): Authorization {
  const scope = claims.scope ?? claims.scp;
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter((s) => s !== "")
      : Array.isArray(scope)
        ? scope.filter((s): s is string => typeof s === "string")
        : [];
  const clientId = typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : undefined;
  return Object.freeze({
    scopes: Object.freeze(scopes),
    claims: Object.freeze({ ...claims }),
    ...(issuer !== undefined && { issuer }),
    ...(typeof claims.sub === "string" && { subject: claims.sub }),
    ...(clientId !== undefined && { clientId }),
    ...(typeof claims.exp === "number" && { expiresAt: claims.exp }),
  });
}

let loaded: typeof Jose | undefined;

/** jose, on first use (a dependency of the package, but 80 modules an app without OAuth should not load at startup). */
function loadJose(): typeof Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, to keep it off the startup path
  return (loaded ??= require("jose") as typeof Jose);
}
