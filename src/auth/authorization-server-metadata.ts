import { secureUrl } from "./secure-url";

/** The fields of RFC 8414 / OpenID Connect discovery metadata a resource server reads. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [field: string]: unknown;
}

/**
 * The well-known URLs to try for `issuer`, in the spec's order: for an issuer with a path
 * (`https://as.example/realms/x`) RFC 8414 inserted after the host, OpenID Connect inserted, then
 * OpenID Connect appended; for one without, RFC 8414 then OpenID Connect.
 */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  const origin = url.origin;
  if (path === "") return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Fetches the authorization server's metadata by discovery and checks that its `issuer` is exactly
 * the configured one (RFC 8414 section 3.3): metadata naming another issuer is never used.
 */
export async function discoverMetadata(
  issuer: string,
  options: { allowInsecure?: boolean; timeoutMs?: number; fetch?: typeof fetch } = {},
): Promise<AuthorizationServerMetadata> {
  secureUrl(issuer, "the issuer", options.allowInsecure);
  const get = options.fetch ?? fetch;
  const problems: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    let response: Response;
    try {
      response = await get(url, {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
    } catch (error) {
      problems.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      problems.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    let metadata: unknown;
    try {
      metadata = await response.json();
    } catch {
      problems.push(`${url}: not JSON`);
      continue;
    }
    const found = metadata as Partial<AuthorizationServerMetadata> | null;
    if (found === null || typeof found !== "object" || found.issuer !== issuer) {
      // Another issuer's metadata (or none): a mix-up, never used.
      throw new Error(
        `authorization server metadata at ${url} names issuer ${JSON.stringify(found?.issuer)}, not the configured ${JSON.stringify(issuer)}`,
      );
    }
    return found as AuthorizationServerMetadata;
  }
  throw new Error(`no authorization server metadata found for issuer ${issuer} (tried ${problems.join("; ")})`);
}
