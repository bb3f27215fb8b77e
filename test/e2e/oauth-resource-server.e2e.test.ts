// Pins the OAuth 2.1 resource server (listen({ auth }) with jwtVerifier) against a real
// authorization server, oidc-provider on 127.0.0.1 (test/oauth/oidc-harness.mjs), serving the
// preferences components with their scopes and the preferences hierarchy:
// - the protected resource metadata at the path-aware well-known URL, exactly (resource,
//   authorization_servers, scopes_supported without offline_access, bearer_methods_supported)
// - every refusal with its exact status and WWW-Authenticate value: no token (401 with
//   resource_metadata and scope), expired, wrong audience, wrong issuer, unknown key, alg none,
//   an HMAC token keyed with the public key (401 invalid_token); a token only in the query string
//   or another Authorization scheme (401 with the plain challenge, no error code, OAuth 2.1
//   section 5.3; the reason in the log); a token in the query string and the header, malformed
//   Bearer or repeated Authorization headers (400 invalid_request); insufficient scope (403
//   insufficient_scope naming every scope the operation needs)
// - a read token sees only the read components (lists filtered, cacheScope private) and runs them;
//   the admin tool needs preferences:admin; the preferences scope implies both (hierarchy)
// - key rotation at the authorization server: a token signed with the new kid is accepted
// - the principal comes from the token's subject: sealed state started with one subject's token
//   is refused (-32602) when continued with another subject's token holding the same scopes
// - a mounted httpHandler({ auth }) serves the metadata, challenges and checks scopes the same way,
//   and so does a mounted nodeHandler({ auth }) on a node:http server (auth with authenticate is refused)
// - the official client 2.4.0 runs the client-credentials flow from the 401 challenge and then
//   completes an @Elicit flow (choose_preferences) as that principal
// - no token, claim or key material in any answer or log line
import { createHash, generateKeyPairSync } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, importJWK, SignJWT } from "jose";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { jwtVerifier, type HttpListener, type McpApp } from "roundtrip-mcp";
import { MemoryLogger } from "roundtrip-mcp/testing";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import { AuthorizationServer } from "../oauth/authorization-server";

const READ = ["preferences:read"];

const MODERN = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const FORM = { ...MODERN, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };

/** A mounted handler's request: `tools/list`, or `tools/call` of `name`, with the token when given. */
function mountPost(token: string | undefined, name?: string): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": name === undefined ? "tools/list" : "tools/call",
      ...(name !== undefined && { "mcp-name": name }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(
      name === undefined
        ? { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } }
        : { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: {}, _meta: FORM } },
    ),
  };
}

describe("an OAuth 2.1 resource server against oidc-provider", () => {
  let as: AuthorizationServer;
  let app: McpApp;
  let listener: HttpListener;
  let logger: MemoryLogger;
  let resource: string;
  let metadataUrl: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    as = await AuthorizationServer.start();
    logger = new MemoryLogger();
    app = createPreferencesApp({ logger });
    listener = await app.listen({ auth: { verifier: jwtVerifier({ issuer: as.issuer, jwksCooldownMs: 0 }) } });
    resource = listener.url;
    metadataUrl = resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  });
  afterAll(async () => {
    await app?.close();
    await as?.close();
  });

  const issued = async (scopes: readonly string[], audience = resource) => {
    const token = await as.token(audience, scopes);
    tokens.push(token);
    return token;
  };
  /** A token signed with the authorization server's own key, with claims of our choosing. */
  const forged = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const key = await importJWK(as.facts.signingKey as never, "RS256");
    const now = Math.floor(Date.now() / 1000);
    const payload = { iss: as.issuer, sub: "forger", aud: resource, iat: now - 60, exp: now + 300, scope: "preferences", ...claims };
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: as.facts.signingKey.kid, ...header })
      .sign(key);
    tokens.push(token);
    return token;
  };
  const post = async (body: unknown, headers: Record<string, string> = {}, url = resource) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const list = (token: string | undefined, method = "tools/list") =>
    post(
      { jsonrpc: "2.0", id: 1, method, params: { _meta: MODERN } },
      { "mcp-method": method, ...(token !== undefined && { authorization: `Bearer ${token}` }) },
    );
  const call = (token: string, name: string, args: Record<string, unknown> = {}) =>
    post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args, _meta: FORM } },
      { authorization: `Bearer ${token}`, "mcp-method": "tools/call", "mcp-name": name },
    );
  const invalidToken = () =>
    `Bearer error="invalid_token", error_description="The access token is invalid or expired", resource_metadata="${metadataUrl}", scope="preferences:read preferences:admin"`;

  it("publishes the protected resource metadata at the path-aware well-known URL", async () => {
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: [as.issuer],
      scopes_supported: ["preferences:read", "preferences:admin", "preferences"],
      bearer_methods_supported: ["header"],
    });
  });

  it("answers a request without a token 401 with resource_metadata and the scopes for basic use", async () => {
    const response = await list(undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="preferences:read preferences:admin"`,
    );
    expect((await response.json()).error.code).toBe(-32001);
  });

  it("lets a read token see and run only the read components, with private cache hints", async () => {
    const token = await issued(READ);
    const tools = await (await list(token)).json();
    expect(tools.result.tools.map((t: { name: string }) => t.name)).toEqual([
      "choose_preferences",
      "preview_theme",
      "show_theme",
      "style_options",
    ]);
    expect(tools.result.cacheScope).toBe("private");
    const templates = await (await list(token, "resources/templates/list")).json();
    expect(templates.result.resourceTemplates).toHaveLength(1);
    const prompts = await (await list(token, "prompts/list")).json();
    expect(prompts.result.prompts).toHaveLength(1);
    const round = await (await call(token, "choose_preferences")).json();
    expect(round.result.resultType).toBe("input_required");
  });

  it("answers an under-scoped call 403 insufficient_scope naming every scope it needs", async () => {
    const token = await issued(READ);
    const response = await call(token, "reset_preferences");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a scope this operation needs", resource_metadata="${metadataUrl}", scope="preferences:admin"`,
    );
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32003,
        message: "Insufficient scope: this operation needs preferences:admin",
        data: { requiredScopes: ["preferences:admin"] },
      },
    });
  });

  it("honours the scope hierarchy: preferences implies preferences:admin and preferences:read", async () => {
    const token = await issued(["preferences"]);
    const tools = await (await list(token)).json();
    expect(tools.result.tools.map((t: { name: string }) => t.name)).toEqual([
      "choose_preferences",
      "preview_theme",
      "reset_preferences",
      "show_theme",
      "style_options",
    ]);
    const response = await call(token, "reset_preferences");
    expect(response.status).toBe(200);
    expect((await response.json()).result.resultType).toBe("input_required");
  });

  it("refuses an expired token 401 invalid_token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await list(await forged({ exp: now - 120, iat: now - 600 }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(invalidToken());
  });

  it("refuses a token issued for another resource (audience) 401 invalid_token", async () => {
    const response = await list(await issued(READ, "http://localhost:1/other"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(invalidToken());
  });

  it("refuses a token naming another issuer 401 invalid_token", async () => {
    const response = await list(await forged({ iss: "http://127.0.0.1:1" }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(invalidToken());
  });

  it("refuses a token without exp 401 invalid_token", async () => {
    const key = await importJWK(as.facts.signingKey as never, "RS256");
    const token = await new SignJWT({ scope: "preferences" })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: as.facts.signingKey.kid })
      .setIssuer(as.issuer)
      .setSubject("x")
      .setAudience(resource)
      .sign(key);
    tokens.push(token);
    expect((await list(token)).status).toBe(401);
  });

  it("refuses a token signed by an unknown key 401 invalid_token", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const token = await new SignJWT({ scope: "preferences" })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: "not-a-kid-of-the-server" })
      .setIssuer(as.issuer)
      .setSubject("x")
      .setAudience(resource)
      .setExpirationTime("5m")
      .sign(privateKey);
    tokens.push(token);
    const response = await list(token);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(invalidToken());
  });

  it("refuses alg none and an HMAC token keyed with the public JWK 401 invalid_token", async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const exp = Math.floor(Date.now() / 1000) + 300;
    const claims = { iss: as.issuer, sub: "x", aud: resource, exp, scope: "preferences" };
    const none = `${b64({ alg: "none", typ: "at+jwt" })}.${b64(claims)}.`;
    tokens.push(none);
    // "none" has an empty signature: a b64token may not end in ".", so it is sent as the server sees it.
    const noneResponse = await list(none.slice(0, -1));
    expect(noneResponse.status).toBe(401);
    expect(noneResponse.headers.get("www-authenticate")).toBe(invalidToken());
    const publicJwk = { kty: "RSA", n: as.facts.signingKey.n, e: as.facts.signingKey.e };
    const secret = createHash("sha256").update(JSON.stringify(publicJwk)).digest();
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: as.facts.signingKey.kid }).sign(secret);
    tokens.push(hmac);
    expect((await list(hmac)).status).toBe(401);
  });

  it("binds sealed state to the token's subject", async () => {
    const first = await (await call(await issued(READ), "choose_preferences")).json();
    const requestState = first.result.requestState as string;
    const continueWith = async (token: string) =>
      (
        await post(
          {
            jsonrpc: "2.0",
            id: 8,
            method: "tools/call",
            params: {
              name: "choose_preferences",
              arguments: {},
              _meta: FORM,
              requestState,
              inputResponses: {
                [(first.result.inputRequests ? Object.keys(first.result.inputRequests)[0] : undefined) ?? "color"]: {
                  action: "accept",
                  content: { color: "red" },
                },
              },
            },
          },
          { authorization: `Bearer ${token}`, "mcp-method": "tools/call", "mcp-name": "choose_preferences" },
        )
      ).json();
    expect((await continueWith(await issued(READ))).result?.resultType).toBe("input_required");
    expect((await continueWith(await forged({ scope: "preferences:read", sub: "someone-else" }))).error.code).toBe(-32602);
  });

  it("answers a token sent only in the query string 401 with the plain challenge, the reason in the log (OAuth 2.1 section 5.3)", async () => {
    const token = await issued(READ);
    const before = logger.entries.length;
    const response = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } },
      {},
      `${resource}?access_token=${token}`,
    );
    // An unsupported method is no credentials at all: no error code, so the client starts its flow.
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="preferences:read preferences:admin"`,
    );
    expect((await response.json()).error).toEqual({ code: -32001, message: "Unauthorized: a bearer token is required" });
    expect(logger.entries.slice(before)).toContainEqual(
      expect.objectContaining({
        message: "bearer credentials sent by a method this server does not support",
        fields: expect.objectContaining({
          status: 401,
          reason: "query-token",
          description: "Send the access token in the Authorization header, never in the URL",
        }),
      }),
    );
    expect(JSON.stringify(logger.entries)).not.toContain(token);
  });

  it("answers another Authorization scheme (Basic) 401 with the plain challenge, the reason in the log", async () => {
    const before = logger.entries.length;
    const response = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } },
      { authorization: "Basic dXNlcjpwYXNz" },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="preferences:read preferences:admin"`,
    );
    expect(logger.entries.slice(before)).toContainEqual(
      expect.objectContaining({ fields: expect.objectContaining({ status: 401, reason: "unsupported-scheme" }) }),
    );
  });

  it("refuses a token in both the query string and the header 400 invalid_request (more than one method)", async () => {
    const token = await issued(READ);
    const response = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } },
      { authorization: `Bearer ${token}` },
      `${resource}?access_token=${token}`,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_request", error_description="Send the access token in the Authorization header, never in the URL", resource_metadata="${metadataUrl}"`,
    );
  });

  it("refuses a malformed Bearer Authorization header 400 invalid_request", async () => {
    const expected = `Bearer error="invalid_request", error_description="The Authorization header must be: Bearer <token>", resource_metadata="${metadataUrl}"`;
    for (const value of ["Bearer", "Bearer a b", "Bearer a,b"]) {
      const response = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: MODERN } }, { authorization: value });
      expect([value, response.status, response.headers.get("www-authenticate")]).toEqual([value, 400, expected]);
    }
  });

  it("accepts a token signed with a key the authorization server rotated to", async () => {
    const before = await issued(READ);
    expect((await list(before)).status).toBe(200);
    const oldKid = as.facts.signingKey.kid;
    await as.rotate();
    expect(as.facts.signingKey.kid).not.toBe(oldKid);
    const after = await issued(READ);
    const response = await list(after);
    expect(response.status).toBe(200);
    expect((await response.json()).result.tools).toHaveLength(4);
  });

  it("lets the official client run the client-credentials flow, then an @Elicit flow as that principal", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: as.facts.clientId,
      clientSecret: as.facts.clientSecret,
      expectedIssuer: as.issuer,
    } as never);
    const client = new Client({ name: "oauth-e2e", version: "1.0.0" }, {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      inputRequired: { autoFulfill: true },
    } as never);
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string };
      asked.push(params.message);
      const content: Record<string, string> = params.message.startsWith("Which colour") ? { color: "green" } : { style: "mint" };
      return { action: "accept" as const, content };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
    // The client asks for the scopes of the 401 challenge: the read and the admin scope.
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual([
      "choose_preferences",
      "preview_theme",
      "reset_preferences",
      "show_theme",
      "style_options",
    ]);
    const result = await client.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
    expect(asked).toEqual(["Which colour do you prefer?", "Which green style?"]);
    const token = provider.tokens()?.access_token;
    expect(typeof token).toBe("string");
    tokens.push(token!);
    await client.close();
  });

  it("serves the same resource server from a mounted httpHandler({ auth })", async () => {
    const mount = "http://127.0.0.1:9/mount/mcp";
    const handler = app.httpHandler({ auth: { resource: mount, verifier: jwtVerifier({ issuer: as.issuer }) } });
    const metadata = await handler.fetch(new Request("http://127.0.0.1:9/.well-known/oauth-protected-resource/mount/mcp"));
    expect(await metadata.json()).toMatchObject({ resource: mount, authorization_servers: [as.issuer] });
    const send = (token: string | undefined, name?: string) => handler.fetch(new Request(mount, mountPost(token, name)));
    const none = await send(undefined);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mount/mcp", scope="preferences:read preferences:admin"',
    );
    const token = await issued(READ, mount);
    const listed = await send(token);
    expect((await listed.json()).result.tools).toHaveLength(4);
    const refused = await send(token, "reset_preferences");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", .*scope="preferences:admin"$/);
    expect((await send(await issued(READ))).status).toBe(401);
    expect(() => app.httpHandler({ auth: { verifier: jwtVerifier({ issuer: as.issuer }) } })).toThrow(
      "httpHandler: auth.resource is required",
    );
  });

  it("serves the same resource server from a mounted nodeHandler({ auth }) on a node:http server", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const mount = `http://127.0.0.1:${port}/mcp`;
    const handler = app.nodeHandler({
      auth: { resource: mount, verifier: jwtVerifier({ issuer: as.issuer }) },
      allowedHosts: ["127.0.0.1"],
    });
    server.on("request", (req, res) => void handler(req, res));
    try {
      const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
      expect(await metadata.json()).toMatchObject({ resource: mount, authorization_servers: [as.issuer] });
      const send = (token: string | undefined, name?: string) => fetch(mount, mountPost(token, name));
      const none = await send(undefined);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp", scope="preferences:read preferences:admin"`,
      );
      const token = await issued(READ, mount);
      const listed = await send(token);
      expect((await listed.json()).result.tools).toHaveLength(4);
      const refused = await send(token, "reset_preferences");
      expect(refused.status).toBe(403);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", .*scope="preferences:admin"$/);
      expect((await send(await issued(READ))).status).toBe(401);
      expect(() => app.nodeHandler({ auth: { verifier: jwtVerifier({ issuer: as.issuer }) } })).toThrow(
        "nodeHandler: auth.resource is required",
      );
      expect(() =>
        app.nodeHandler({ auth: { resource: mount, verifier: jwtVerifier({ issuer: as.issuer }) }, authenticate: async () => "x" }),
      ).toThrow("nodeHandler: give auth or authenticate, not both");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("writes no token, claim or key material to any log line", async () => {
    const logged = JSON.stringify(logger.entries);
    expect(logger.entries.some((e) => e.message === "bearer token refused")).toBe(true);
    for (const token of tokens) for (const part of token.split(".").filter((p) => p.length > 8)) expect(logged).not.toContain(part);
    expect(logged).not.toContain(as.facts.signingKey.n as string);
    expect(logged).not.toContain("forger");
    void exportJWK;
  });
});
