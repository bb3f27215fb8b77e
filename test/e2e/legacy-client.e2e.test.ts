// Pins: a 2025-11-25 client (the SDK client's default initialize handshake) is served over stdio
// by the same components: listing, calling, reading and prompting work; typed errors keep their code;
// every server message validates against the official 2025-11-25 schema, with none of the fields
// 2026-07-28 added (resultType, ttlMs, cacheScope).
import { Boundary, type Connected } from "../support/boundaries";
import { createFeatureApp } from "./fixtures/feature-app";
import type { McpApp } from "../../src/index";

describe("a 2025-11-25 client over stdio", () => {
  let app: McpApp;
  let boundary: Boundary;
  let c: Connected;

  beforeAll(async () => {
    app = createFeatureApp();
    boundary = new Boundary("stdio", app, "feature");
    await boundary.start();
    c = await boundary.connect({ era: "2025" });
  });
  // Every server message in the shape of the negotiated revision, checked against its own schema.
  afterEach(() => expect(c.tap.violations).toEqual([]));
  afterAll(async () => {
    await boundary.stop();
    await app.close();
  });

  it("negotiated 2025-11-25 with initialize", () => {
    const init = c.tap.sent.find((m) => (m as { method?: string }).method === "initialize") as unknown as {
      params: { protocolVersion: string };
    };
    expect(init.params.protocolVersion).toBe("2025-11-25");
    expect(c.tap.revision).toBe("2025-11-25");
  });

  it("lists and calls tools", async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toContain("add");
    const result = await c.client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    expect(result.structuredContent).toEqual({ sum: 3 });
    const bad = await c.client.callTool({ name: "add", arguments: { a: 1 } });
    expect(bad.isError).toBe(true);
  });

  it("reads resources and gets prompts", async () => {
    expect((await c.client.readResource({ uri: "notes://a/1" })).contents[0]).toMatchObject({ text: "note 1 in a" });
    const prompt = await c.client.getPrompt({ name: "code_review", arguments: { language: "go" } });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: "Review this go code." });
  });

  it("keeps typed error codes", async () => {
    await expect(c.client.callTool({ name: "typed_error", arguments: {} })).rejects.toMatchObject({
      code: -33050,
      message: expect.stringContaining("Quota exceeded"),
    });
  });
});
