// How HTTP callers authenticate: as an OAuth 2.1 resource server (docs/authorization.md). Every
// request carries a bearer token from the authorization server named by OAUTH_ISSUER, issued for
// this server's canonical URL: OAUTH_RESOURCE, or else http://localhost:<PORT>/mcp. The scopes
// declared on the components decide what each caller may list and call. stdio is not affected.
import { jwtVerifier, type AuthOptions } from "roundtrip-mcp";

export function httpAuth(port: number): AuthOptions {
  const issuer = process.env.OAUTH_ISSUER;
  if (!issuer)
    throw new TypeError(
      "OAUTH_ISSUER must name the authorization server whose tokens this app accepts over HTTP (e.g. https://auth.example.com/realms/mcp); or serve stdio with --stdio",
    );
  return {
    verifier: jwtVerifier({ issuer }),
    resource: process.env.OAUTH_RESOURCE || (port === 0 ? undefined : `http://localhost:${port}/mcp`),
  };
}
