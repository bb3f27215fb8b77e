// Pins the MCP Apps extension's exact wire JSON, in-process through the testing kit:
// - server/discover declares io.modelcontextprotocol/ui with the view MIME type;
// - a static view lists uri, name, title, description, mimeType and _meta.ui (csp, permissions,
//   domain, prefersBorder) and reads as one content item with the same _meta.ui and its cache hints;
// - a view from a file is read once, at create(): reads never touch the file (deleted after create,
//   still served; fs never read again);
// - a method view computes its HTML on every read; its own content _meta.ui wins over the view's,
//   key by key; bytes are read as a blob;
// - tools/list carries _meta.ui { resourceUri, visibility } and _meta["ui/resourceUri"] beside the
//   tool's own _meta; an app-only tool is listed and callable; visibility alone writes only ui.visibility;
// - @Scopes on a view hide it from a caller without the scope and refuse its read;
// - rendersViews(ctx) answers per request: a view-aware and a view-blind call interleaved on one
//   connection each get their own complete answer;
// - the kit's readView, viewLinkOf and callAsView read and call as a host does.
import fs from "node:fs";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ctx, Result, Scopes, Tool, View, apps, rendersViews, type RequestContext } from "roundtrip-mcp";
import { VIEW_HOST_CAPABILITIES, callAsView, createTestClient, readView, viewLinkOf, type TestClient } from "roundtrip-mcp/testing";

const DIR = mkdtempSync(path.join(tmpdir(), "roundtrip-apps-"));
const FILE = path.join(DIR, "dashboard.html");
const PAGE = "<!doctype html><html><body><h1>Weather</h1></body></html>";
writeFileSync(FILE, PAGE);

@View({
  uri: "ui://weather/dashboard",
  title: "Weather dashboard",
  description: "Today's weather",
  html: { file: FILE },
  csp: { connectDomains: ["https://api.weather.example"], resourceDomains: ["https://*.cdn.example"] },
  permissions: ["geolocation"],
  domain: "weather.views.example",
  prefersBorder: false,
  ttlMs: 60_000,
  cacheScope: "public",
})
class WeatherDashboard {}

class LiveViews {
  reads = 0;
  @View({ uri: "ui://weather/live", prefersBorder: true, csp: { connectDomains: ["https://live.weather.example"] } })
  live(): unknown {
    this.reads++;
    return { text: `<!doctype html><p>read ${this.reads}</p>`, _meta: { ui: { prefersBorder: false }, "example/version": 2 } };
  }
  @View({ uri: "ui://weather/bytes" })
  bytes(): Uint8Array {
    return new TextEncoder().encode("<!doctype html><p>bytes</p>");
  }
}

@Scopes("weather:admin")
@View({ uri: "ui://weather/admin", html: "<!doctype html><p>admin</p>" })
class AdminView {}

class WeatherTools {
  @Tool({ description: "Today's weather", view: WeatherDashboard, _meta: { "example/owner": "weather" } })
  weather(@Ctx() ctx: RequestContext) {
    const reading = { city: "Oslo", celsius: 4 };
    return Result.structured(reading, rendersViews(ctx) ? "Oslo, 4 °C: shown in the dashboard." : "Oslo, 4 °C, light rain.");
  }
  @Tool({ description: "Refreshes the dashboard", view: "ui://weather/dashboard", visibility: ["app"] })
  refresh() {
    return Result.structured({ refreshed: true }, "Refreshed.");
  }
  @Tool({ visibility: ["model"] })
  forecast() {
    return Result.text("Rain tomorrow.");
  }
}

const UI = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
let client: TestClient;

beforeAll(async () => {
  client = await createTestClient([WeatherDashboard, LiveViews, AdminView, WeatherTools], { app: { features: [apps()] } });
});
afterAll(async () => {
  await client.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe("MCP Apps on the wire", () => {
  it("declares the extension in server/discover", async () => {
    const discover = await client.request("server/discover");
    expect(discover.result.capabilities).toMatchObject({
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
      resources: { listChanged: true },
      tools: { listChanged: true },
    });
  });

  it("lists a static view with its _meta.ui, and reads it with the same on its content", async () => {
    const ui = {
      csp: { connectDomains: ["https://api.weather.example"], resourceDomains: ["https://*.cdn.example"] },
      permissions: { geolocation: {} },
      domain: "weather.views.example",
      prefersBorder: false,
    };
    const { items } = await client.listAll("resources/list");
    expect(items.find((r) => r.uri === "ui://weather/dashboard")).toEqual({
      uri: "ui://weather/dashboard",
      name: "WeatherDashboard",
      title: "Weather dashboard",
      description: "Today's weather",
      mimeType: "text/html;profile=mcp-app",
      _meta: { ui },
    });
    const read = await client.readResource("ui://weather/dashboard");
    expect(read.result).toEqual({
      resultType: "complete",
      contents: [{ uri: "ui://weather/dashboard", mimeType: "text/html;profile=mcp-app", text: PAGE, _meta: { ui } }],
      ttlMs: 60_000,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "test-app", version: "0.0.0" } },
    });
  });

  it("serves a file's view from memory: the file is not read again, and may even be gone", async () => {
    const reads = jest.spyOn(fs, "readFileSync");
    const opens = jest.spyOn(fs.promises, "readFile");
    rmSync(FILE);
    try {
      for (let i = 0; i < 3; i++)
        expect((await client.readResource("ui://weather/dashboard")).result.contents[0]).toMatchObject({ text: PAGE });
      expect(reads).not.toHaveBeenCalled();
      expect(opens).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      opens.mockRestore();
      writeFileSync(FILE, PAGE);
    }
  });

  it("computes a method view on every read; the content's own _meta.ui wins key by key", async () => {
    const first = await client.readResource("ui://weather/live");
    const second = await client.readResource("ui://weather/live");
    expect(first.result.contents).toEqual([
      {
        uri: "ui://weather/live",
        mimeType: "text/html;profile=mcp-app",
        text: "<!doctype html><p>read 1</p>",
        _meta: { ui: { csp: { connectDomains: ["https://live.weather.example"] }, prefersBorder: false }, "example/version": 2 },
      },
    ]);
    expect(second.result.contents[0]).toMatchObject({ text: "<!doctype html><p>read 2</p>" });
    const listed = (await client.listAll("resources/list")).items.find((r) => r.uri === "ui://weather/live");
    expect(listed?._meta).toEqual({ ui: { csp: { connectDomains: ["https://live.weather.example"] }, prefersBorder: true } });
    expect((await client.readResource("ui://weather/bytes")).result.contents).toEqual([
      {
        uri: "ui://weather/bytes",
        mimeType: "text/html;profile=mcp-app",
        blob: Buffer.from("<!doctype html><p>bytes</p>").toString("base64"),
      },
    ]);
  });

  it("lists each linked tool with both keys beside its own _meta; visibility alone writes ui.visibility", async () => {
    const { items } = await client.listAll("tools/list");
    const meta = Object.fromEntries(items.map((t) => [t.name, t._meta]));
    expect(meta).toEqual({
      weather: {
        "example/owner": "weather",
        ui: { resourceUri: "ui://weather/dashboard", visibility: ["model", "app"] },
        "ui/resourceUri": "ui://weather/dashboard",
      },
      refresh: { ui: { resourceUri: "ui://weather/dashboard", visibility: ["app"] }, "ui/resourceUri": "ui://weather/dashboard" },
      forecast: { ui: { visibility: ["model"] } },
    });
  });

  it("hides a scoped view from a caller without the scope, and refuses its read", async () => {
    const reader = client.as("ann", { scopes: [] });
    expect((await reader.listAll("resources/list")).items.map((r) => r.uri)).not.toContain("ui://weather/admin");
    expect((await reader.readResource("ui://weather/admin")).error.code).toBe(-32003);
    expect((await client.as("root", { scopes: ["weather:admin"] }).readResource("ui://weather/admin")).status).toBe("complete");
  });

  it("tells each request whether its caller renders views, interleaved on one connection", async () => {
    const calls = await Promise.all([
      client.callTool("weather", {}, { capabilities: UI }),
      client.callTool("weather"),
      client.callTool("weather", {}, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } }),
      client.callTool("weather", {}, { capabilities: UI }),
      client.callTool("weather", {}, { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html"] } } } }),
    ]);
    expect(calls.map((c) => c.result.content)).toEqual([
      [{ type: "text", text: "Oslo, 4 °C: shown in the dashboard." }],
      [{ type: "text", text: "Oslo, 4 °C, light rain." }],
      [{ type: "text", text: "Oslo, 4 °C, light rain." }],
      [{ type: "text", text: "Oslo, 4 °C: shown in the dashboard." }],
      [{ type: "text", text: "Oslo, 4 °C, light rain." }],
    ]);
    for (const call of calls) expect(call.result.structuredContent).toEqual({ city: "Oslo", celsius: 4 });
  });

  it("reads a view as a host does (readView)", async () => {
    const view = await readView(client, "ui://weather/live");
    expect(view.html).toMatch(/^<!doctype html><p>read \d+<\/p>$/);
    expect(view.ui).toEqual({ csp: { connectDomains: ["https://live.weather.example"] }, prefersBorder: false });
    expect(view.listed?._meta).toEqual({ ui: { csp: { connectDomains: ["https://live.weather.example"] }, prefersBorder: true } });
    expect((await readView(client, "ui://weather/bytes")).html).toBe("<!doctype html><p>bytes</p>");
    await expect(readView(client, "ui://weather/none")).rejects.toThrow("readView: reading ui://weather/none ended error");
  });

  it("reads both metadata keys of a tool (viewLinkOf)", async () => {
    expect(await viewLinkOf(client, "refresh")).toMatchObject({
      tool: "refresh",
      resourceUri: "ui://weather/dashboard",
      legacyResourceUri: "ui://weather/dashboard",
      visibility: ["app"],
    });
    await expect(viewLinkOf(client, "nothing")).rejects.toThrow('viewLinkOf: the server lists no tool named "nothing"');
  });

  it("calls as a view would (callAsView): the host's capabilities, and a model-only tool refused", async () => {
    const refreshed = await callAsView(client, "refresh");
    expect(refreshed.result.structuredContent).toEqual({ refreshed: true });
    expect(refreshed.round.request.params!._meta).toMatchObject({ "io.modelcontextprotocol/clientCapabilities": VIEW_HOST_CAPABILITIES });
    expect((await callAsView(client, "weather")).result.content).toEqual([{ type: "text", text: "Oslo, 4 °C: shown in the dashboard." }]);
    await expect(callAsView(client, "forecast")).rejects.toThrow(
      'callAsView: forecast is listed with visibility ["model"]; a host refuses a view\'s call to it',
    );
  });
});
