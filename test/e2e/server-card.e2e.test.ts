// Pins the server card (SEP-2127 draft) over real HTTP:
// - listen({ serverCard: true }) serves GET <path>/server-card as application/mcp-server-card+json,
//   valid against the draft's published schema, with CORS (a foreign Origin is not refused; the
//   preflight is answered), Cache-Control and an ETag; If-None-Match (exact, weak, a list, *) gets
//   304; HEAD has the headers without the body; other methods 405;
// - the card agrees with server/discover: name, version, title, description, icons, websiteUrl of
//   serverInfo, and supportedProtocolVersions holding every version discover names;
// - with the OAuth resource server on, the card names the canonical resource and a required,
//   secret Authorization header, and stays public (no token needed);
// - app.serverCardHandler({ url }) beside a mounted nodeHandler() and as a fetch handler serves
//   the same document; the card's own mistakes are refused when listen() is called, naming the fix.
import "reflect-metadata";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpApp, type McpAppOptions } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { serverCardErrors } from "../support/discovery-schemas";
import { rpc } from "../support/raw-http";

const IDENTITY: Partial<McpAppOptions> = {
  name: "weather",
  version: "2.1.0",
  title: "Weather",
  description: "Forecasts and alerts for any city",
  icons: [{ src: "https://example.com/weather.png", mimeType: "image/png", sizes: ["48x48"] }],
  websiteUrl: "https://example.com/weather",
  mcpName: "io.github.acme/weather",
  repository: { url: "https://github.com/acme/weather", source: "github" },
};
const appWith = (extra: Partial<McpAppOptions> = {}) =>
  McpApp.create({ components: [], state: { ephemeral: true }, logger: new MemoryLogger(), ...IDENTITY, ...extra });
const standIn = { issuer: "https://auth.example.com", verify: async () => ({ scopes: [], subject: "anyone", claims: {} }) };

describe("listen({ serverCard })", () => {
  let app: McpApp;
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    app = appWith();
    const listener = await app.listen({ serverCard: true });
    url = listener.url;
    close = () => listener.close();
  });
  afterAll(async () => (await close(), await app.close()));

  it("serves a valid card with CORS, caching headers and an ETag, whatever the Origin", async () => {
    const response = await fetch(`${url}/server-card`, {
      headers: { origin: "https://catalog.example.org", accept: "application/mcp-server-card+json" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toBe("ETag");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const card = await response.json();
    expect(serverCardErrors(card)).toEqual([]);
    expect(card).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
      name: "io.github.acme/weather",
      version: "2.1.0",
      description: "Forecasts and alerts for any city",
      title: "Weather",
      icons: IDENTITY.icons,
      websiteUrl: "https://example.com/weather",
      repository: { url: "https://github.com/acme/weather", source: "github" },
      remotes: [{ type: "streamable-http", url, supportedProtocolVersions: ["2025-11-25", "2026-07-28"] }],
    });
  });

  it("agrees with server/discover", async () => {
    const card = await (await fetch(`${url}/server-card`)).json();
    const discover = (await rpc(url, "server/discover", { _meta: meta() })).body!.result as {
      supportedVersions: string[];
      _meta: Record<string, Record<string, unknown>>;
    };
    const serverInfo = discover._meta["io.modelcontextprotocol/serverInfo"]!;
    expect(serverInfo).toEqual({
      name: "weather",
      version: card.version,
      title: card.title,
      description: card.description,
      icons: card.icons,
      websiteUrl: card.websiteUrl,
    });
    for (const version of discover.supportedVersions) expect(card.remotes[0].supportedProtocolVersions).toContain(version);
  });

  it("answers If-None-Match with 304, HEAD without a body, the preflight, and other methods 405", async () => {
    const first = await fetch(`${url}/server-card`);
    const etag = first.headers.get("etag")!;
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await fetch(`${url}/server-card`, { headers: { "if-none-match": value } });
      expect([value, again.status, await again.text()]).toEqual([value, 304, ""]);
      expect(again.headers.get("etag")).toBe(etag);
    }
    expect((await fetch(`${url}/server-card`, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    const head = await fetch(`${url}/server-card`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), await head.text()]).toEqual([200, first.headers.get("content-length"), ""]);
    const preflight = await fetch(`${url}/server-card`, {
      method: "OPTIONS",
      headers: {
        origin: "https://catalog.example.org",
        "access-control-request-method": "GET",
        "access-control-request-headers": "if-none-match",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Content-Type, If-None-Match");
    const post = await fetch(`${url}/server-card`, { method: "POST", body: "{}" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
  });

  it("still refuses a foreign Origin on the MCP endpoint itself", async () => {
    const refused = await rpc(url, "server/discover", { _meta: meta() }, { headers: { origin: "https://catalog.example.org" } });
    expect(refused.status).toBe(403);
  });
});

describe("a server card with OAuth on", () => {
  it("names the canonical resource and a required, secret Authorization header, and needs no token", async () => {
    const app = appWith();
    const listener = await app.listen({ serverCard: true, auth: { verifier: standIn } });
    try {
      const response = await fetch(`${listener.url}/server-card`);
      expect(response.status).toBe(200);
      const card = await response.json();
      expect(serverCardErrors(card)).toEqual([]);
      expect(card.remotes).toEqual([
        {
          type: "streamable-http",
          url: listener.url,
          supportedProtocolVersions: ["2025-11-25", "2026-07-28"],
          headers: [expect.objectContaining({ name: "Authorization", isRequired: true, isSecret: true, value: "Bearer {token}" })],
        },
      ]);
    } finally {
      await listener.close();
      await app.close();
    }
  });
});

describe("app.serverCardHandler()", () => {
  it("serves the card beside a mounted nodeHandler() and as a fetch handler", async () => {
    const app = appWith();
    const mcp = app.nodeHandler({ allowedHosts: ["127.0.0.1"] });
    const card = app.serverCardHandler({ url: "https://mcp.example.com/mcp", maxAgeSeconds: 60 });
    const { node } = card;
    const server: Server = createServer((req, res) => (req.url === "/mcp/server-card" ? node(req, res) : mcp(req, res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const viaNode = await fetch(`${base}/mcp/server-card`);
      expect(viaNode.headers.get("cache-control")).toBe("public, max-age=60");
      const document = await viaNode.json();
      expect(serverCardErrors(document)).toEqual([]);
      expect(document.remotes[0].url).toBe("https://mcp.example.com/mcp");
      const { fetch: fetchCard } = card;
      const viaFetch = await fetchCard(new Request("https://mcp.example.com/mcp/server-card"));
      expect(await viaFetch.json()).toEqual(document);
      expect(card.card).toEqual(document);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });

  it("refuses a card the app cannot make, naming the fix", async () => {
    expect(() => appWith().serverCardHandler({})).toThrow("serverCardHandler: options.url is required");
    await expect(appWith({ mcpName: undefined }).listen({ serverCard: true })).rejects.toThrow(
      'serverCard: the app has no mcpName; give McpApp.create({ mcpName: "io.github.<user>/<server>" })',
    );
    await expect(appWith({ description: "x".repeat(101) }).listen({ serverCard: true })).rejects.toThrow(
      "serverCard: a card needs the app's description, 1-100 characters (McpApp.create({ description })); it has 101",
    );
    expect(() => appWith().serverCardHandler({ url: "ftp://mcp.example.com" })).toThrow("serverCard: url must be an http(s) URL");
    expect(() => appWith({ mcpName: "weather" })).toThrow(
      'McpApp.create: mcpName must be reverse-DNS with one slash, such as "io.github.<user>/<server>"',
    );
  });
});

function meta() {
  return { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
}
