import type { AppLogger } from "../protocol/app-logger";
import type { Authorization } from "../protocol/authorization";
import type { JsonObject } from "../protocol/wire-types";
import { insufficientScopeChallenge, invalidRequestChallenge, invalidTokenChallenge, missingTokenChallenge } from "./bearer-challenge";
import { protectedResourceMetadata, protectedResourceMetadataUrl } from "./protected-resource-metadata";
import { secureUrl } from "./secure-url";
import { InvalidTokenError, type TokenVerifier } from "./token-verifier";

/** The `auth` option of `listen()` and `httpHandler()`: this server as an OAuth 2.1 resource server. */
export interface AuthOptions {
  /** Verifies each bearer token: `jwtVerifier(...)`, `introspectionVerifier(...)` or your own. */
  verifier: TokenVerifier;
  /**
   * This server's canonical URI (RFC 8707), the audience its tokens must name, e.g.
   * `https://mcp.example.com/mcp`. Default for `listen()`: the listener's own URL; required for `httpHandler()`.
   */
  resource?: string;
  /** Issuers listed in the protected resource metadata. Default: the verifier's `issuer`. */
  authorizationServers?: string[];
  /**
   * The `scope` of a 401 challenge, what a client asks for on first use. Default: the scopes the
   * app's components declare (what its lists can show), not every scope the hierarchy names.
   */
  challengeScopes?: string[];
  /** `scopes_supported` of the metadata. Default: every scope the components and the hierarchy name (never `offline_access`). */
  scopesSupported?: string[];
  /** Maps a verified token to its principal. Default `"<iss>#<sub>"` (issuers have no fragment, so it is unambiguous). */
  principal?: (authorization: Authorization) => string;
  /** `resource_name` of the metadata. */
  resourceName?: string;
  /** Development only: accept a resource URI over http on a host that is not loopback. */
  allowInsecure?: boolean;
}

/** A request the bearer check let through: who it is and what its token granted. */
export interface Authorized {
  readonly kind: "authorized";
  readonly principal: string;
  readonly authorization: Authorization;
}

/** A refusal, as an HTTP answer: status, `WWW-Authenticate`, and the JSON-RPC error of the body. */
export interface BearerRefusal {
  readonly kind: "refused";
  readonly status: 400 | 401 | 403 | 503;
  readonly headers: Readonly<Record<string, string>>;
  readonly error: { code: number; message: string; data?: JsonObject };
}

const QUERY_TOKEN = "Send the access token in the Authorization header, never in the URL";

/** RFC 6750 b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What the app's components declare, for the metadata and the default challenge. */
export interface AppScopes {
  /** Scopes the components need, in declaration order, without repeats. */
  readonly declared: readonly string[];
  /** Every scope the hierarchy names. */
  readonly hierarchy: readonly string[];
}

/**
 * The bearer check of one HTTP entry: reads the token from the `Authorization` header only,
 * verifies it, and answers every refusal with its exact challenge. No token, claim or key material
 * reaches an answer or a log line: only the refusal's kind and the verifier's reason.
 */
export class BearerAuth {
  private readonly challengeScopes: readonly string[];
  private readonly scopesSupported: readonly string[];
  private readonly authorizationServers: readonly string[];

  constructor(
    private readonly options: AuthOptions,
    scopes: AppScopes,
    private readonly logger: AppLogger,
  ) {
    if (options.verifier === undefined || typeof options.verifier.verify !== "function")
      throw new TypeError(
        "auth.verifier must be a TokenVerifier: jwtVerifier({ issuer }), introspectionVerifier(...) or { verify(token, { resource }) }",
      );
    const servers = options.authorizationServers ?? (options.verifier.issuer !== undefined ? [options.verifier.issuer] : []);
    if (servers.length === 0)
      throw new TypeError("auth.authorizationServers must list at least one issuer (the protected resource metadata needs one)");
    this.authorizationServers = servers;
    if (options.resource !== undefined) this.checkResource(options.resource);
    this.challengeScopes = options.challengeScopes ?? scopes.declared;
    this.scopesSupported = options.scopesSupported ?? [...new Set([...scopes.declared, ...scopes.hierarchy])];
  }

  /** Throws unless `resource` is an absolute https URI (http on loopback) without a fragment. */
  checkResource(resource: string): string {
    const url = secureUrl(resource, "auth.resource", this.options.allowInsecure);
    if (url.hash !== "") throw new TypeError(`auth.resource must not have a fragment (RFC 8707), got ${JSON.stringify(resource)}`);
    return resource;
  }

  /** The metadata's path on this server (`/.well-known/oauth-protected-resource/mcp`). */
  metadataPath(resource: string): string {
    return new URL(protectedResourceMetadataUrl(resource)).pathname;
  }

  /** The protected resource metadata document of `resource`. */
  metadata(resource: string): JsonObject {
    return protectedResourceMetadata({
      resource,
      authorizationServers: this.authorizationServers,
      scopes: this.scopesSupported,
      resourceName: this.options.resourceName,
    });
  }

  /**
   * Checks one request's credentials. `authorization` holds every `Authorization` header value it
   * carried; `query` its query string (a token there is never read: alone it is answered like no
   * token, 401 with the plain challenge; beside a header it is a malformed request, 400).
   */
  async check(
    authorization: readonly string[] | undefined,
    query: string | undefined,
    resource: string,
  ): Promise<Authorized | BearerRefusal> {
    const metadataUrl = protectedResourceMetadataUrl(resource);
    const inQuery = query !== undefined && new URLSearchParams(query).has("access_token");
    const headers = authorization?.length ?? 0;
    // A token by two methods at once is a malformed request (RFC 6750 section 3.1).
    if (inQuery && headers > 0) return this.malformed(metadataUrl, "query-token", QUERY_TOKEN);
    // OAuth 2.1 section 5.3: no credentials, or credentials by a method this server does not support
    // (a token in the URL), get the plain challenge with no error code, so the client starts its flow.
    if (inQuery) return this.unsupported(metadataUrl, "query-token", QUERY_TOKEN);
    if (headers === 0) {
      this.logger.debug("bearer token missing", { status: 401 });
      return this.challenge(metadataUrl);
    }
    if (headers > 1) return this.malformed(metadataUrl, "several-headers", "Send one Authorization header");
    // One header (length checked above); split always returns at least one item.
    const [scheme, token, ...rest] = authorization![0]!.trim().split(/ +/);
    if (scheme!.toLowerCase() !== "bearer")
      return this.unsupported(metadataUrl, "unsupported-scheme", "Send the access token as Authorization: Bearer <token>");
    if (token === undefined || rest.length > 0 || !B64TOKEN.test(token))
      return this.malformed(metadataUrl, "malformed-header", "The Authorization header must be: Bearer <token>");
    let granted: Authorization;
    try {
      granted = await this.options.verifier.verify(token, { resource });
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        this.logger.info("bearer token refused", { status: 401, reason: error.reason });
        return refusal(
          401,
          invalidTokenChallenge(metadataUrl, this.challengeScopes),
          -32001,
          "Unauthorized: the access token is invalid or expired",
        );
      }
      // The verifier itself failed (authorization server unreachable): the client may retry.
      this.logger.error("token verifier failed", {
        status: 503,
        error: error instanceof Error ? `${error.name}: ${error.message}` : typeof error,
      });
      return {
        kind: "refused",
        status: 503,
        headers: { "retry-after": "5" },
        error: { code: -32603, message: "Authorization is unavailable; try again shortly" },
      };
    }
    return { kind: "authorized", principal: this.principalOf(granted), authorization: granted };
  }

  /** The 403 answer for a token without every scope in `required`. */
  insufficientScope(required: readonly string[], resource: string): BearerRefusal {
    this.logger.info("bearer token lacks scopes", { status: 403, requiredScopes: [...required] });
    return refusal(403, this.scopeChallenge(required, resource), -32003, `Insufficient scope: this operation needs ${required.join(" ")}`, {
      requiredScopes: [...required],
    });
  }

  /** The `WWW-Authenticate` value of that 403: every scope in `required`, and where the metadata is. */
  scopeChallenge(required: readonly string[], resource: string): string {
    return insufficientScopeChallenge(protectedResourceMetadataUrl(resource), required);
  }

  /** 401 with the plain challenge, as for no token: what was wrong goes to the log only. */
  private unsupported(metadataUrl: string, reason: string, description: string): BearerRefusal {
    this.logger.info("bearer credentials sent by a method this server does not support", { status: 401, reason, description });
    return this.challenge(metadataUrl);
  }

  private challenge(metadataUrl: string): BearerRefusal {
    return refusal(401, missingTokenChallenge(metadataUrl, this.challengeScopes), -32001, "Unauthorized: a bearer token is required");
  }

  private malformed(metadataUrl: string, reason: string, description: string): BearerRefusal {
    this.logger.info("bearer request malformed", { status: 400, reason });
    return refusal(400, invalidRequestChallenge(metadataUrl, description), -32600, `Bad authorization request: ${description}`);
  }

  private principalOf(granted: Authorization): string {
    if (this.options.principal !== undefined) return this.options.principal(granted);
    return `${granted.issuer ?? ""}#${granted.subject ?? granted.clientId ?? ""}`;
  }
}

function refusal(status: 400 | 401 | 403, challenge: string, code: number, message: string, data?: JsonObject): BearerRefusal {
  return {
    kind: "refused",
    status,
    headers: { "www-authenticate": challenge },
    error: { code, message, ...(data !== undefined && { data }) },
  };
}
