// Pins that the preferences sample negotiates MCP Apps per request on both eras over HTTP, with
// the official clients as independent clients (@modelcontextprotocol/client 2.4.0 for
// 2026-07-28, @modelcontextprotocol/sdk 1.32.2 for a 2025-11-25 session):
// - 2026-07-28: server/discover declares io.modelcontextprotocol/ui; a view-aware client (the
//   extension in its per-request capabilities) and a view-blind one, calling show_theme
//   interleaved on one server, each get a complete answer shaped for it, never for the other;
// - 2025-11-25: the initialize answer declares the extension; a view-aware session (the extension
//   in its initialize) and a view-blind one, interleaved, likewise;
// - on both eras tools/list carries both metadata keys, the view reads with _meta.ui, and the
//   app-only style_options is listed and callable;
// - the fast lane writes the same bytes as the SDK path for tools/list, resources/list and the
//   view's read (one listener of each, the same app).
import { Client as Client2026, StreamableHTTPClientTransport as Http2026 } from "@modelcontextprotocol/client";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Http2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { HttpListener, McpApp } from "roundtrip-mcp";
import { SilentLogger } from "roundtrip-mcp/testing";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
const VIEW = "ui://preferences/theme-preview";
const TEXT = "Theme blue / teal: accent #008080 on background #d9ecec, text #ffffff on the accent.";
const PALETTE = { color: "blue", style: "teal", accent: "#008080", background: "#d9ecec", onAccent: "#ffffff" };

/** What both clients' calls share: the methods these tests use, whatever the client's era. */
interface Caller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content?: unknown; structuredContent?: unknown }>;
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; _meta?: Record<string, unknown> }[] }>;
  getServerCapabilities(): { extensions?: Record<string, unknown> } | undefined;
  close(): Promise<void>;
}

let app: McpApp;
let listener: HttpListener;

beforeAll(async () => {
  app = createPreferencesApp({ logger: new SilentLogger() });
  listener = await app.listen({ port: 0 });
});
afterAll(async () => {
  await app.close();
});

const aware = { extensions: { [UI]: { mimeTypes: [MIME] } } };

async function connect(era: "2026" | "2025", capabilities: object): Promise<Caller> {
  if (era === "2026") {
    const client = new Client2026({ name: "apps-e2e", version: "1.0.0" }, {
      capabilities,
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as never);
    await client.connect(new Http2026(new URL(listener.url)));
    return client as unknown as Caller;
  }
  const client = new Client2025({ name: "apps-e2e-2025", version: "1.0.0" }, { capabilities: capabilities as never });
  const transport = new Http2025(new URL(listener.url));
  await client.connect(transport);
  // A 2025-11-25 session: its capabilities are its initialize's.
  expect(transport.sessionId).toEqual(expect.any(String));
  return client as unknown as Caller;
}

describe.each(["2026", "2025"] as const)("MCP Apps negotiated per request (%s era)", (era) => {
  let viewAware: Caller;
  let viewBlind: Caller;
  beforeAll(async () => {
    viewAware = await connect(era, aware);
    viewBlind = await connect(era, {});
  });
  afterAll(async () => {
    await viewAware.close();
    await viewBlind.close();
  });

  it("declares the extension to every client", () => {
    for (const client of [viewAware, viewBlind]) expect(client.getServerCapabilities()?.extensions?.[UI]).toEqual({ mimeTypes: [MIME] });
  });

  it("gives a view-aware and a view-blind client, interleaved, each a complete answer of its own", async () => {
    const order = [viewAware, viewBlind, viewBlind, viewAware, viewAware, viewBlind, viewAware, viewBlind];
    const results = await Promise.all(
      order.map((client) => client.callTool({ name: "show_theme", arguments: { color: "blue", style: "teal" } })),
    );
    results.forEach((result, i) => {
      const rendered = order[i] === viewAware;
      expect(result.content).toEqual([{ type: "text", text: rendered ? `${TEXT} Shown in the theme preview.` : TEXT }]);
      expect(result.structuredContent).toEqual(PALETTE);
    });
  });

  it("lists the tools with both metadata keys, and reads the view with its _meta.ui", async () => {
    const { tools } = await viewBlind.listTools();
    const meta = Object.fromEntries(tools.filter((t) => t._meta !== undefined).map((t) => [t.name, t._meta]));
    expect(meta).toEqual({
      show_theme: { ui: { resourceUri: VIEW, visibility: ["model", "app"] }, "ui/resourceUri": VIEW },
      style_options: { ui: { resourceUri: VIEW, visibility: ["app"] }, "ui/resourceUri": VIEW },
    });
    const read = await viewAware.readResource({ uri: VIEW });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: VIEW, mimeType: MIME, _meta: { ui: { prefersBorder: true } } });
  });

  it("serves the app-only tool to a view's host", async () => {
    const styles = await viewAware.callTool({ name: "style_options", arguments: { color: "green" } });
    expect(styles.structuredContent).toEqual({
      color: "green",
      styles: [
        { style: "forest", accent: "#228b22" },
        { style: "mint", accent: "#3eb489" },
        { style: "olive", accent: "#808000" },
      ],
    });
  });
});

describe("the fast lane and the SDK path", () => {
  it("write the same bytes for the lists and the view's read", async () => {
    const sdkPath = await app.listen({ port: 0, fastLane: false });
    const exchange = async (url: string, method: string, params: Record<string, unknown>) => {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof params.uri === "string" && { "mcp-name": params.uri }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            ...params,
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": aware },
          },
        }),
      });
      return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
    };
    try {
      for (const [method, params] of [
        ["tools/list", {}],
        ["resources/list", {}],
        ["resources/read", { uri: VIEW }],
      ] as const) {
        const lane = await exchange(listener.url, method, params);
        expect(lane.status).toBe(200);
        expect(await exchange(sdkPath.url, method, params)).toEqual(lane);
      }
    } finally {
      await sdkPath.close();
    }
  });
});
