// Pins, over in-process, stdio and HTTP with the official client pinned to 2026-07-28:
// - list results: deterministic order, exact descriptors (DTO and raw inputSchema, no-arg schema,
//   outputSchema, annotations, icons, prompt arguments), resultType and cache hints on the wire
// - tools/call: DTO transform+validation, isError naming each field and constraint, constructor
//   injection, raw-schema arguments, structured output validated (-32603 when broken), every content
//   kind, typed McpError passthrough, untyped error as a generic isError (error id, no message), unknown tool -32602
// - resources/read: text and blob, template variables, cache hints, not-found -32602 with data.uri,
//   typed error passthrough, untyped error -32603 with a generic message
// - prompts/get: arguments, missing required argument -32602, unknown prompt -32602, failure -32603
// - completion/complete for prompt arguments and template variables
// - the request context: progress only with a progressToken, logging only with a logLevel
// - every request stands alone: an in-process or stdio connection that already served a
//   2026-07-28 request still refuses a later one claiming an unknown version (-32022)
// - every server message validates against the official wire schema
import { ProtocolError } from "@modelcontextprotocol/client";
import { BOUNDARIES, Boundary, type Connected } from "../support/boundaries";
import { envelope } from "../support/raw-session";
import { createFeatureApp } from "./fixtures/feature-app";
import type { McpApp } from "../../src/index";
import type { MemoryLogger } from "../../src/testing/index";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as ProtocolError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error("expected the request to fail");
}

describe.each(BOUNDARIES)("foundation over %s", (name) => {
  let app: McpApp;
  let boundary: Boundary;
  let c: Connected;

  beforeAll(async () => {
    app = createFeatureApp();
    boundary = new Boundary(name, app, "feature");
    await boundary.start();
    c = await boundary.connect({ capabilities: { elicitation: { form: {} } } });
  });

  afterAll(async () => {
    await boundary.stop();
    await app.close();
  });

  afterEach(() => {
    expect(c.tap.violations).toEqual([]);
  });

  it("lists tools in name order with exact descriptors and cache hints", async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "add",
      "bad_output",
      "echo_raw",
      "greet",
      "media",
      "ping",
      "plain_error",
      "soft_fail",
      "typed_error",
      "wait_for_abort",
      "whoami",
      "work",
    ]);
    const add = tools.find((t) => t.name === "add")!;
    expect(add).toEqual({
      name: "add",
      description: "Adds two integers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "integer", description: "first addend" }, b: { type: "integer", minimum: 0, maximum: 1000 } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"], additionalProperties: false },
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
    expect(tools.find((t) => t.name === "ping")!.inputSchema).toEqual({ type: "object", additionalProperties: false });
    const raw = tools.find((t) => t.name === "echo_raw")!.inputSchema as Record<string, unknown>;
    expect(raw.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(raw.$defs).toEqual({ stamp: { type: "string" } });
    expect((raw.properties as Record<string, unknown>).items).toEqual({ type: "array", prefixItems: [{ type: "string" }], items: false });
    const greet = tools.find((t) => t.name === "greet")!;
    expect(greet.title).toBe("Greeter");
    expect(greet.annotations).toEqual({ readOnlyHint: true });
    expect(greet.icons).toEqual([{ src: "https://example.com/g.png", mimeType: "image/png" }]);
    const wire = c.tap.lastResponse("tools/list") as { result: Record<string, unknown> };
    expect(wire.result.resultType).toBe("complete");
    expect(wire.result.ttlMs).toBe(0);
    expect(wire.result.cacheScope).toBe("private");
  });

  it("calls a DTO tool and validates its structured output", async () => {
    const result = await c.client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":42}' }]);
    expect(result.isError).toBeUndefined();
    expect((c.tap.lastResponse("tools/call") as { result: Record<string, unknown> }).result.resultType).toBe("complete");
  });

  it("names every failing field and constraint in an isError result", async () => {
    const result = await c.client.callTool({ name: "add", arguments: { a: "x", b: 5000, extra: 1 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain("Invalid arguments for tool add");
    expect(text).toContain("a: isInt");
    expect(text).toContain("b: max");
    expect(text).toContain("extra: whitelistValidation");
  });

  it("injects constructor dependencies into a class component", async () => {
    const result = await c.client.callTool({ name: "greet", arguments: { name: "Ada", style: "loud" } });
    expect(result.content).toEqual([{ type: "text", text: "HELLO, ADA!" }]);
  });

  it("passes raw-schema arguments through and validates them with the schema", async () => {
    const ok = await c.client.callTool({ name: "echo_raw", arguments: { items: ["one"], when: "now" } });
    expect(ok.structuredContent).toEqual({ items: ["one"], when: "now" });
    const bad = await c.client.callTool({ name: "echo_raw", arguments: { items: ["one", "two"] } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toContain("items: items (/items must NOT have more than 1 items)");
  });

  it("refuses arguments to a tool that takes none", async () => {
    expect((await c.client.callTool({ name: "ping", arguments: {} })).content).toEqual([{ type: "text", text: "pong" }]);
    const bad = await c.client.callTool({ name: "ping", arguments: { x: 1 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toContain("additionalProperties");
  });

  it("returns every content kind", async () => {
    const result = await c.client.callTool({ name: "media", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "caption" },
      { type: "image", data: "iVBORw==", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "docs://readme", name: "readme", mimeType: "text/markdown" },
      { type: "resource", resource: { uri: "docs://inline", mimeType: "text/plain", text: "inline text" } },
    ]);
  });

  it("turns a typed error into that JSON-RPC error and an untyped one into a generic isError", async () => {
    expect(await rejection(c.client.callTool({ name: "typed_error", arguments: {} }))).toEqual({
      code: -33050,
      message: "Quota exceeded",
      data: { retryAfter: 30 },
    });
    const plain = await c.client.callTool({ name: "plain_error", arguments: {} });
    expect(plain).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringMatching(/^Unexpected error \(error id [0-9a-f-]{36}\)/) }],
    });
    expect(JSON.stringify(plain)).not.toContain("disk on fire");
    const soft = await c.client.callTool({ name: "soft_fail", arguments: {} });
    expect(soft).toMatchObject({ isError: true, content: [{ type: "text", text: "that did not work" }] });
  });

  it("answers -32603 when a result breaks its own output schema", async () => {
    const error = await rejection(c.client.callTool({ name: "bad_output", arguments: {} }));
    expect(error.code).toBe(-32603);
  });

  it("answers -32602 for an unknown tool", async () => {
    const error = await rejection(c.client.callTool({ name: "nope", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("nope");
  });

  it("lists resources and templates with cache hints", async () => {
    const { resources } = await c.client.listResources();
    expect(resources).toEqual([
      { uri: "docs://logo", name: "logo", mimeType: "image/png" },
      { uri: "docs://readme", name: "readme", description: "The readme", mimeType: "text/markdown" },
    ]);
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([{ uriTemplate: "notes://{folder}/{id}", name: "note", mimeType: "text/plain" }]);
    for (const method of ["resources/list", "resources/templates/list"]) {
      const wire = (c.tap.lastResponse(method) as { result: Record<string, unknown> }).result;
      expect([wire.resultType, wire.ttlMs, wire.cacheScope]).toEqual(["complete", 0, "private"]);
    }
  });

  it("reads text, blob and templated resources with the resource's cache hints", async () => {
    expect((await c.client.readResource({ uri: "docs://readme" })).contents).toEqual([
      { uri: "docs://readme", mimeType: "text/markdown", text: "# Readme" },
    ]);
    const wire = (c.tap.lastResponse("resources/read") as { result: Record<string, unknown> }).result;
    expect([wire.resultType, wire.ttlMs, wire.cacheScope]).toEqual(["complete", 60000, "public"]);
    expect((await c.client.readResource({ uri: "docs://logo" })).contents).toEqual([
      { uri: "docs://logo", mimeType: "image/png", blob: "AQID" },
    ]);
    expect((await c.client.readResource({ uri: "notes://ideas/42" })).contents).toEqual([
      { uri: "notes://ideas/42", mimeType: "text/plain", text: "note 42 in ideas" },
    ]);
    expect((await c.client.readResource({ uri: "notes://in%20box/7" })).contents[0]).toMatchObject({ text: "note 7 in in box" });
  });

  it("answers -32602 with data.uri for a resource that does not exist", async () => {
    expect(await rejection(c.client.readResource({ uri: "docs://nothing" }))).toEqual({
      code: -32602,
      message: "Resource not found: docs://nothing",
      data: { uri: "docs://nothing" },
    });
    expect(await rejection(c.client.readResource({ uri: "notes://ideas/missing" }))).toEqual({
      code: -32602,
      message: "Resource not found: notes://ideas/missing",
      data: { uri: "notes://ideas/missing" },
    });
  });

  it("keeps typed resource errors and hides untyped ones behind -32603", async () => {
    expect(await rejection(c.client.readResource({ uri: "notes://x/typed" }))).toEqual({
      code: -32602,
      message: "Note is locked",
      data: { id: "typed" },
    });
    const hidden = await rejection(c.client.readResource({ uri: "notes://x/boom" }));
    expect(hidden.code).toBe(-32603);
    expect(hidden.message).not.toContain("secret detail");
    // The detail goes to the app's own logger (the stdio child logs in its own process).
    if (name !== "stdio") {
      expect((app.logger as MemoryLogger).entries).toContainEqual(
        expect.objectContaining({ level: "error", fields: expect.objectContaining({ error: "secret detail" }) }),
      );
    }
  });

  it("lists prompts with their arguments and renders them", async () => {
    const { prompts } = await c.client.listPrompts();
    expect(prompts).toEqual([
      { name: "broken_prompt", description: "Fails", arguments: [] },
      {
        name: "code_review",
        description: "Reviews code",
        arguments: [
          { name: "language", required: true },
          { name: "focus", description: "what to focus on", required: false },
        ],
      },
      { name: "plain_prompt", title: "Plain", arguments: [] },
    ]);
    const got = await c.client.getPrompt({ name: "code_review", arguments: { language: "python", focus: "naming" } });
    expect(got.messages).toEqual([{ role: "user", content: { type: "text", text: "Review this python code, focusing on naming." } }]);
    expect(got.description).toBe("Reviews code");
    expect((await c.client.getPrompt({ name: "plain_prompt" })).messages).toEqual([
      { role: "assistant", content: { type: "text", text: "Hi" } },
    ]);
  });

  it("answers -32602 for a missing prompt argument or an unknown prompt, -32603 for a failure", async () => {
    const missing = await rejection(c.client.getPrompt({ name: "code_review", arguments: {} }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain("language");
    expect((await rejection(c.client.getPrompt({ name: "nope" }))).code).toBe(-32602);
    const broken = await rejection(c.client.getPrompt({ name: "broken_prompt" }));
    expect(broken.code).toBe(-32603);
    expect(broken.message).not.toContain("internal detail");
  });

  it("completes prompt arguments and template variables", async () => {
    const prompt = await c.client.complete({
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "language", value: "ty" },
    });
    expect(prompt.completion).toEqual({ values: ["typescript", "typos"], total: 2, hasMore: false });
    const template = await c.client.complete({
      ref: { type: "ref/resource", uri: "notes://{folder}/{id}" },
      argument: { name: "folder", value: "i" },
    });
    expect(template.completion.values).toEqual(["inbox", "ideas"]);
    const none = await c.client.complete({
      ref: { type: "ref/resource", uri: "notes://{folder}/{id}" },
      argument: { name: "id", value: "" },
    });
    expect(none.completion.values).toEqual([]);
  });

  it("reports progress only with a progressToken and logs only with a logLevel", async () => {
    // Read from the wire: the official client runs notification handlers in a microtask, so one
    // that arrives in the same chunk as the response can miss its (already removed) progress handler.
    const notifications = (since: number, method: string) =>
      c.tap.received
        .slice(since)
        .filter((m) => (m as { method?: string }).method === method)
        .map((m) => (m as { params: Record<string, unknown> }).params);
    let mark = c.tap.received.length;
    const quiet = await c.client.callTool({ name: "work", arguments: {} });
    expect(quiet.content).toEqual([{ type: "text", text: "progress:false log:none" }]);
    expect(notifications(mark, "notifications/progress")).toEqual([]);
    expect(notifications(mark, "notifications/message")).toEqual([]);

    mark = c.tap.received.length;
    const loud = await c.client.callTool({ name: "work", arguments: {}, _meta: { [LOG_LEVEL]: "info" } }, { onprogress: () => undefined });
    expect(loud.content).toEqual([{ type: "text", text: "progress:true log:info" }]);
    const progress = notifications(mark, "notifications/progress");
    expect(progress.map(({ progressToken, ...rest }) => (expect(progressToken).toBeDefined(), rest))).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2 },
    ]);
    expect(notifications(mark, "notifications/message")).toEqual([{ level: "info", data: { step: "done" } }]);
    // Every notification of the call came before its response.
    const responseAt = c.tap.received.findIndex((m, i) => i >= mark && (m as { method?: string }).method === undefined);
    expect(c.tap.received.slice(responseAt + 1).filter((m) => (m as { method?: string }).method !== undefined)).toEqual([]);

    mark = c.tap.received.length;
    const above = await c.client.callTool({ name: "work", arguments: {}, _meta: { [LOG_LEVEL]: "error" } });
    expect(above.content).toEqual([{ type: "text", text: "progress:false log:error" }]);
    expect(notifications(mark, "notifications/message")).toEqual([]);
  });

  // DIGEST §1.1, §1.5: the version is read from every request, not from the connection. Over HTTP
  // there is no connection (every POST stands alone): http-wire.e2e.test.ts pins -32022 there.
  if (name !== "http") {
    it("refuses an unsupported version on a connection already used", async () => {
      const raw = await boundary.raw();
      expect((await raw.request("tools/list", {})).result).toMatchObject({ resultType: "complete" });
      const versioned = await raw.request("server/discover", {
        _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "1900-01-01" },
      });
      expect(versioned.error).toEqual({
        code: -32022,
        message: "Unsupported protocol version: 1900-01-01",
        data: { supported: ["2026-07-28"], requested: "1900-01-01" },
      });
      expect(raw.violations).toEqual([]);
    });
  }

  it("gives the component the request's own capabilities and an anonymous principal", async () => {
    const result = await c.client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toEqual({ method: "tools/call", principal: null, capabilities: { elicitation: { form: {} } } });
  });
});
