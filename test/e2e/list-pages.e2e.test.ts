// Pins paged lists end to end (issue 22 item 4):
// - tools/list, resources/list, resources/templates/list and prompts/list answer pages of the
//   app's listPageSize, in a stable order, every page with the same cacheScope and ttlMs, and the
//   testing kit's client.listAll walks them to every entry exactly once, in-process and over HTTP;
// - the official client (@modelcontextprotocol/client 2.4.0) walks the pages: its listTools()
//   aggregates all 250 tools from 3 requests on the wire, and an explicit cursor walk gives the
//   same entries; a 2025-era session of the official client walks them too;
// - over HTTP, the fast lane and the SDK path give the same pages (byte-equal once the cursor is
//   set aside, and either path's cursor opens on the other);
// - a forged cursor, or one carried to another list, is -32602 over HTTP with the message naming
//   the fix; the default page size is 100 and a bad listPageSize fails McpApp.create.
import "reflect-metadata";
import { McpApp, type JsonObject } from "../../src/index";
import { createHttpTestClient, createTestClient, MemoryLogger, type TestClient } from "../../src/testing/index";
import { Boundary } from "../support/boundaries";
import { manyComponents, nameOf } from "../support/many-components";
import { fastLaneCountsOf } from "../../src/server/fast-lane-counts";

const N = 250;
const Many = manyComponents(N, { resources: true, prompts: true });
const names = (prefix: string) => Array.from({ length: N }, (_, i) => nameOf(prefix, i));
const appOptions = { listPageSize: 100, listCache: { ttlMs: 1000, cacheScope: "public" as const } };

describe.each([
  ["in-process", () => createTestClient([Many], { app: appOptions })],
  ["http", () => createHttpTestClient([Many], { app: appOptions })],
] as const)("paged lists %s", (_boundary, open) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await open();
  });
  afterAll(() => client.close());

  it.each([
    ["tools/list", (e: JsonObject) => e.name, names("t")],
    ["prompts/list", (e: JsonObject) => e.name, names("p")],
    ["resources/list", (e: JsonObject) => e.uri, names("r").map((n) => `notes://${n}`)],
    ["resources/templates/list", (e: JsonObject) => e.uriTemplate, names("u").map((n) => `notes://${n}/{id}`)],
  ])("%s comes in pages of 100 with the same cache hints, walked to every entry once", async (method, idOf, expected) => {
    const { items, pages } = await client.listAll(method);
    expect(items.map(idOf)).toEqual(expected);
    expect(pages.map((p) => Object.values(p).find(Array.isArray)!.length)).toEqual([100, 100, 50]);
    expect(pages.map((p) => [p.cacheScope, p.ttlMs])).toEqual([
      ["public", 1000],
      ["public", 1000],
      ["public", 1000],
    ]);
    expect(pages.map((p) => typeof p.nextCursor)).toEqual(["string", "string", "undefined"]);
    // The order is stable: a second walk is the same.
    expect((await client.listAll(method)).items).toEqual(items);
  });

  it("refuses a forged cursor and one carried to another list with -32602 naming the fix", async () => {
    const first = await client.raw("tools/list", {});
    const cursor = (first.result as JsonObject).nextCursor as string;
    for (const [method, c] of [
      ["tools/list", cursor.slice(0, -1) + (cursor.endsWith("A") ? "B" : "A")],
      ["prompts/list", cursor],
    ] as const) {
      const refused = await client.raw(method, { cursor: c });
      expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining("list again without a cursor") });
    }
  });
});

describe("the official client walks the pages", () => {
  const app = McpApp.create({ components: [Many], state: { ephemeral: true }, logger: new MemoryLogger() });
  const boundary = new Boundary("http", app, "none");
  beforeAll(() => boundary.start());
  afterAll(async () => {
    await boundary.stop();
    await app.close();
  });

  it("aggregates every tool from the default pages of 100, and follows explicit cursors", async () => {
    const { client, tap } = await boundary.connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(names("t"));
    expect(tap.sent.filter((m) => "method" in m && m.method === "tools/list")).toHaveLength(3);
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
      walked.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(walked).toEqual(names("p"));
  });

  it("walks them for a 2025-era client too", async () => {
    const { client } = await boundary.connect({ era: "2025" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names("t"));
  });
});

describe("the fast lane and the SDK path page alike", () => {
  const app = McpApp.create({ components: [Many], state: { ephemeral: true }, logger: new MemoryLogger(), listPageSize: 100 });
  afterAll(() => app.close());

  it("gives the same page bytes, and each path's cursor opens on the other", async () => {
    const lane = await app.listen({ fastLane: true });
    const sdk = await app.listen({ fastLane: false });
    try {
      const post = async (url: string, cursor?: string) => {
        const body = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
            ...(cursor !== undefined && { cursor }),
          },
        };
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/list",
          },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      };
      const taken = fastLaneCountsOf(app).taken;
      const laneFirst = await post(lane.url);
      const sdkFirst = await post(sdk.url);
      expect(fastLaneCountsOf(app).taken).toBe(taken + 1);
      const cursorOf = (text: string) => (JSON.parse(text) as { result: { nextCursor: string } }).result.nextCursor;
      const withoutCursor = (text: string) => text.replace(/"nextCursor":"[^"]*"/, '"nextCursor":"…"');
      expect([laneFirst.status, withoutCursor(laneFirst.text)]).toEqual([sdkFirst.status, withoutCursor(sdkFirst.text)]);
      const laneSecond = await post(lane.url, cursorOf(sdkFirst.text));
      const sdkSecond = await post(sdk.url, cursorOf(laneFirst.text));
      expect(withoutCursor(laneSecond.text)).toBe(withoutCursor(sdkSecond.text));
      const laneLast = await post(lane.url, cursorOf(laneSecond.text));
      const sdkLast = await post(sdk.url, cursorOf(sdkSecond.text));
      expect(laneLast.text).toBe(sdkLast.text);
      expect(JSON.parse(laneLast.text).result.tools).toHaveLength(50);
    } finally {
      await lane.close();
      await sdk.close();
    }
  });

  it("defaults to pages of 100 and refuses a bad listPageSize", async () => {
    const plain = McpApp.create({ components: [Many], state: { ephemeral: true }, logger: new MemoryLogger() });
    const client = await createTestClient(plain);
    try {
      expect((await client.listAll("tools/list")).pages).toHaveLength(3);
    } finally {
      await client.close();
      await plain.close();
    }
    for (const listPageSize of [0, 2.5, -3])
      expect(() => McpApp.create({ components: [], state: { ephemeral: true }, logger: new MemoryLogger(), listPageSize })).toThrow(
        "listPageSize must be a positive integer",
      );
  });
});
