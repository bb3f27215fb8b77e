import "reflect-metadata";
import { McpApp } from "roundtrip-mcp";

/**
 * The app mounted in a fetch-native server (Deno, Bun, Cloudflare Workers, Hono's `c.req.raw`).
 * `principalOf` authenticates each request (undefined: refuse it; null: anonymous), and the
 * principal reaches the app as `authInfo.extra.principal`, which components read as `ctx.principal`.
 */
export function mountedFetch(app: McpApp, principalOf: (request: Request) => string | null | undefined): (request: Request) => Promise<Response> {
  const handler = app.httpHandler();
  return async (request) => {
    const principal = principalOf(request);
    if (principal === undefined) return new Response("Unauthorized", { status: 401, headers: { "www-authenticate": "Bearer" } });
    return handler.fetch(request, { authInfo: { token: "", clientId: principal ?? "anonymous", scopes: [], extra: { principal } } });
  };
}
