// Pins introspectionVerifier (RFC 7662) against oidc-provider issuing opaque access tokens:
// - an active opaque token for this resource is accepted, its scopes applied (lists filtered)
// - a token for another resource, and a made-up token, are refused 401 invalid_token
// - a resource server whose client id and secret hold space, +, %, :, &, =, /, ?, #, quotes,
//   parentheses, !, ~ and * authenticates to the introspection endpoint (the credentials
//   form-urlencoded, RFC 6749 section 2.3.1; oidc-provider decodes them), and one whose secret is
//   wrong is refused by it (the call fails: invalid_client, not an inactive token)
import { introspectionVerifier, type HttpListener, type McpApp } from "roundtrip-mcp";
import { MemoryLogger } from "roundtrip-mcp/testing";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import { AuthorizationServer } from "../oauth/authorization-server";

describe("introspectionVerifier against oidc-provider (opaque tokens)", () => {
  let as: AuthorizationServer;
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    as = await AuthorizationServer.start({ OIDC_OPAQUE: "1" });
    app = createPreferencesApp({ logger: new MemoryLogger() });
    const { id, secret } = as.facts.introspector;
    listener = await app.listen({ auth: { verifier: introspectionVerifier({ issuer: as.issuer, clientId: id, clientSecret: secret }) } });
  });
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  const list = (token: string) =>
    fetch(listener.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      }),
    });

  it("accepts an active opaque token for this resource and applies its scopes", async () => {
    const token = await as.token(listener.url, ["preferences:read"]);
    expect(token.split(".")).toHaveLength(1);
    const response = await list(token);
    expect(response.status).toBe(200);
    expect((await response.json()).result.tools.map((t: { name: string }) => t.name)).toEqual([
      "choose_preferences",
      "preview_theme",
      "show_theme",
      "style_options",
    ]);
  });

  it("refuses a token for another resource and an unknown token 401 invalid_token", async () => {
    const other = await as.token("http://localhost:1/other", ["preferences"]);
    for (const token of [other, "made-up-token-value"]) {
      const response = await list(token);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it("authenticates a resource server whose client id and secret hold characters form-urlencoding changes", async () => {
    const { id, secret } = as.facts.oddIntrospector;
    const resource = listener.url;
    const token = await as.token(resource, ["preferences:read"]);
    const good = introspectionVerifier({ issuer: as.issuer, clientId: id, clientSecret: secret });
    await expect(good.verify(token, { resource })).resolves.toMatchObject({ scopes: ["preferences:read"] });
    const wrong = introspectionVerifier({ issuer: as.issuer, clientId: id, clientSecret: `${secret}x` });
    await expect(wrong.verify(token, { resource })).rejects.toThrow(/answered HTTP 401/);
  });
});
