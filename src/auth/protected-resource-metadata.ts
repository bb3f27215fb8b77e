import type { JsonObject } from "../protocol/wire-types";

/** Never advertised by a resource: refresh tokens are not a resource requirement. */
const OFFLINE_ACCESS = "offline_access";

/**
 * The path-aware well-known URL of a resource's protected resource metadata (RFC 9728 section 3.1):
 * `https://host/mcp` -> `https://host/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** The metadata document (RFC 9728 section 2): the resource, its authorization servers, its scopes, header-only tokens. */
export function protectedResourceMetadata(facts: {
  resource: string;
  authorizationServers: readonly string[];
  scopes: readonly string[];
  resourceName?: string;
}): JsonObject {
  return {
    resource: facts.resource,
    authorization_servers: [...facts.authorizationServers],
    scopes_supported: facts.scopes.filter((s) => s !== OFFLINE_ACCESS),
    bearer_methods_supported: ["header"],
    ...(facts.resourceName !== undefined && { resource_name: facts.resourceName }),
  };
}
