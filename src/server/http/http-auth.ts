import { BearerAuth, type Authorized, type AuthOptions, type BearerRefusal } from "../../auth/bearer-auth";
import type { FeatureTable } from "../../features/feature-table";
import type { AppLogger } from "../../protocol/app-logger";
import type { Authorization } from "../../protocol/authorization";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import type { ScopeChallenge } from "../request/http-status";

/** An answer the auth layer writes itself: the metadata document or a refusal. */
export interface AuthAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body; a refusal's is a JSON-RPC error (its id added by the caller). */
  readonly body: JsonObject;
}

/**
 * The OAuth resource server on one HTTP entry (`listen({ auth })`, `httpHandler({ auth })`): the
 * protected resource metadata route, the bearer check in front of everything else, and the 403
 * challenge for a component the token's scopes do not reach, decided before dispatch.
 */
export class HttpAuth {
  private readonly bearer: BearerAuth;
  /** One challenge per resource served, made once: every request's facts carry it. */
  private readonly challenges = new Map<string, ScopeChallenge>();

  constructor(
    options: AuthOptions,
    private readonly features: FeatureTable,
    logger: AppLogger,
  ) {
    const declared = [...new Set(features.components.flatMap((c) => c.scopes))];
    this.bearer = new BearerAuth(options, { declared, hierarchy: features.scopes.scopes }, logger);
  }

  /** Checks a resource URI given at start-up (or the listener's own URL). */
  resource(value: string): string {
    return this.bearer.checkResource(value);
  }

  /** The metadata document when `pathname` is its path, else undefined. */
  metadata(pathname: string, method: string | undefined, resource: string): AuthAnswer | undefined {
    if (pathname !== this.bearer.metadataPath(resource)) return undefined;
    if (method !== "GET" && method !== "HEAD") return { status: 405, headers: { allow: "GET" }, body: { error: "method_not_allowed" } };
    return {
      status: 200,
      headers: { "cache-control": "max-age=300", "access-control-allow-origin": "*" },
      body: this.bearer.metadata(resource),
    };
  }

  check(authorization: readonly string[] | undefined, query: string | undefined, resource: string): Promise<Authorized | BearerRefusal> {
    return this.bearer.check(authorization, query, resource);
  }

  /** The 403 challenge of a refusal the dispatcher makes (a task method, a completion) on `resource`. */
  scopeChallenge(resource: string): ScopeChallenge {
    let challenge = this.challenges.get(resource);
    if (challenge === undefined) {
      challenge = (required) => this.bearer.scopeChallenge(required, resource);
      this.challenges.set(resource, challenge);
    }
    return challenge;
  }

  /** The 403 refusal of a request naming a component whose scopes `authorization` lacks, or undefined. */
  scopeRefusal(body: unknown, authorization: Authorization, resource: string): BearerRefusal | undefined {
    if (!isPlainObject(body) || typeof body.method !== "string" || !isPlainObject(body.params)) return undefined;
    const needed = this.features.method(body.method)?.scopesFor?.(body.params as JsonObject);
    if (needed === undefined || this.features.scopes.allows(needed, authorization)) return undefined;
    return this.bearer.insufficientScope(needed, resource);
  }
}
