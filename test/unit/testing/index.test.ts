// Pins the pure parts of roundtrip-mcp/testing:
// - answer builders produce the bare 2026-07-28 InputResponse bodies (accept with and without
//   content, decline, cancel, sampling text and blocks with defaults, roots from URIs and objects)
// - tamper keeps a state's length and alphabet in "flip" mode and changes exactly one character;
//   "append" and "truncate" do what they say; bad input is refused
// - createTestClock starts at a fixed instant, advances by seconds, can be set, refuses bad values, and
//   its `now` works detached (as a state option)
// - AskedInput reads kind, message, url, schema, fields, required and choices for every enum shape
//   (enum, oneOf, items.enum, items.anyOf), a missing mode as form, sampling and roots requests
// - HTTP request headers: protocol version from _meta, Mcp-Method, Mcp-Name per method, Mcp-Param-*
//   from x-mcp-header, and the =?base64?...?= encoding of values that are not plain visible ASCII
// - the built roundtrip-mcp/testing entry loads on its own (it brings reflect-metadata) and serves
//   a component in-process, in a fresh process that imports nothing else first
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import {
  AskedInput,
  TEST_CLOCK_START,
  accept,
  cancel,
  decline,
  clientRoots,
  modelReply,
  tamper,
  createTestClock,
  type WireInputRequest,
} from "roundtrip-mcp/testing";
import { encodeHeaderValue, mcpRequestHeaders, paramHeadersOf } from "../../../src/testing/mcp-request-headers";

describe("answer builders", () => {
  it("build elicitation answers", () => {
    expect(accept({ color: "green", tags: ["a"], n: 2, ok: true })).toEqual({
      action: "accept",
      content: { color: "green", tags: ["a"], n: 2, ok: true },
    });
    expect(accept()).toEqual({ action: "accept" });
    expect(accept()).not.toHaveProperty("content");
    expect(decline()).toEqual({ action: "decline" });
    expect(cancel()).toEqual({ action: "cancel" });
  });

  it("build sampling and roots answers", () => {
    expect(modelReply("Paris")).toEqual({ role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" });
    expect(modelReply({ type: "image", data: "AA==", mimeType: "image/png" }, { model: "m", stopReason: "endTurn" })).toEqual({
      role: "assistant",
      content: { type: "image", data: "AA==", mimeType: "image/png" },
      model: "m",
      stopReason: "endTurn",
    });
    expect(clientRoots("file:///a", { uri: "file:///b", name: "B" })).toEqual({
      roots: [{ uri: "file:///a" }, { uri: "file:///b", name: "B" }],
    });
    expect(clientRoots()).toEqual({ roots: [] });
  });
});

describe("tamper", () => {
  const state = "rs1.k1.eyJhIjoxfQ.c2lnbmF0dXJl";

  it("flips one character, keeping length and alphabet", () => {
    const forged = tamper(state);
    expect(forged).not.toBe(state);
    expect(forged).toHaveLength(state.length);
    expect([...forged].filter((c, i) => c !== state[i])).toHaveLength(1);
    expect(forged).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(tamper("....")).toBe("....-TAMPERED");
  });

  it("appends or truncates on request, and refuses a non-string", () => {
    expect(tamper(state, "append")).toBe(`${state}-TAMPERED`);
    expect(tamper(state, "truncate")).toBe(state.slice(0, -1));
    expect(() => tamper("")).toThrow(TypeError);
    expect(() => tamper(undefined as unknown as string)).toThrow(TypeError);
    expect(() => tamper(state, "rot13" as never)).toThrow(/unknown mode/);
  });
});

describe("createTestClock", () => {
  it("starts fixed, advances by seconds and can be set", () => {
    const clock = createTestClock();
    const { now } = clock;
    expect(now()).toBe(TEST_CLOCK_START);
    clock.advance(301);
    expect(now()).toBe(TEST_CLOCK_START + 301_000);
    clock.advance(0.5);
    expect(now()).toBe(TEST_CLOCK_START + 301_500);
    clock.set(new Date("2030-01-01T00:00:00Z"));
    expect(now()).toBe(Date.parse("2030-01-01T00:00:00Z"));
    expect(createTestClock(42).now()).toBe(42);
  });

  it("refuses going backwards and non-finite values", () => {
    const clock = createTestClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => createTestClock(new Date("nope"))).toThrow(RangeError);
  });
});

describe("AskedInput", () => {
  const form = (properties: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): WireInputRequest => ({
    method: "elicitation/create",
    params: { mode: "form", message: "Pick", requestedSchema: { type: "object", properties, required: Object.keys(properties) }, ...extra },
  });

  it("reads a form's message, fields, required and single-field choices", () => {
    const asked = new AskedInput("color", form({ color: { type: "string", enum: ["red", "green"] } }));
    expect(asked).toMatchObject({
      key: "color",
      kind: "form",
      method: "elicitation/create",
      message: "Pick",
      fields: ["color"],
      required: ["color"],
      choices: ["red", "green"],
    });
    expect(asked.url).toBeUndefined();
    expect(asked.schema?.properties.color).toEqual({ type: "string", enum: ["red", "green"] });
    expect(JSON.parse(JSON.stringify(asked))).toEqual(asked.request);
  });

  it("reads every enum shape, and no choices for free or several fields", () => {
    expect(
      new AskedInput(
        "k",
        form({
          s: {
            type: "string",
            oneOf: [
              { const: "a", title: "A" },
              { const: "b", title: "B" },
            ],
          },
        }),
      ).choices,
    ).toEqual(["a", "b"]);
    expect(new AskedInput("k", form({ m: { type: "array", items: { type: "string", enum: ["x", "y"] } } })).choices).toEqual(["x", "y"]);
    expect(new AskedInput("k", form({ m: { type: "array", items: { anyOf: [{ const: "p", title: "P" }] } } })).choices).toEqual(["p"]);
    expect(new AskedInput("k", form({ name: { type: "string" } })).choices).toBeUndefined();
    const two = new AskedInput("k", form({ a: { type: "string", enum: ["1"] }, b: { type: "integer" } }));
    expect(two.choices).toBeUndefined();
    expect(two.choicesOf("a")).toEqual(["1"]);
    expect(two.choicesOf("b")).toBeUndefined();
    expect(() => two.choicesOf("c")).toThrow('asked("k").choicesOf: the form has no field "c" (fields: a, b)');
  });

  it("reads a form without mode as form, a URL request, sampling and roots", () => {
    const modeless = new AskedInput("f", {
      method: "elicitation/create",
      params: { message: "M", requestedSchema: { type: "object", properties: {} } },
    });
    expect(modeless.kind).toBe("form");
    const url = new AskedInput("u", {
      method: "elicitation/create",
      params: { mode: "url", message: "Open", url: "https://example.com/x" },
    });
    expect(url).toMatchObject({
      kind: "url",
      url: "https://example.com/x",
      message: "Open",
      fields: [],
      schema: undefined,
      choices: undefined,
    });
    const sample = new AskedInput("s", {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 },
    });
    expect(sample).toMatchObject({ kind: "sampling", message: undefined, params: { maxTokens: 5 } });
    expect(new AskedInput("r", { method: "roots/list" })).toMatchObject({ kind: "roots", params: {} });
  });
});

describe("HTTP request headers", () => {
  const meta = (version: string) => ({
    _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} },
  });

  it("sends the 2026-07-28 headers for each method", () => {
    expect(mcpRequestHeaders({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", ...meta("2026-07-28") } })).toEqual({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "greet",
    });
    expect(
      mcpRequestHeaders({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "a://b", ...meta("1900-01-01") } }),
    ).toMatchObject({
      "mcp-protocol-version": "1900-01-01",
      "mcp-name": "a://b",
    });
    expect(mcpRequestHeaders({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "p" } })).toMatchObject({
      "mcp-protocol-version": "2026-07-28",
      "mcp-name": "p",
    });
    expect(mcpRequestHeaders({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })).not.toHaveProperty("mcp-name");
  });

  it("mirrors x-mcp-header arguments into Mcp-Param-* headers", () => {
    const declared = paramHeadersOf({
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        n: { type: "integer", "x-mcp-header": "N" },
        other: { type: "string" },
      },
    });
    expect(declared).toEqual([
      { property: "region", header: "Region" },
      { property: "n", header: "N" },
    ]);
    const headers = mcpRequestHeaders(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { region: "Zürich", n: 3 } } },
      declared,
    );
    expect(headers["mcp-param-region"]).toBe(`=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
    expect(headers["mcp-param-n"]).toBe("3");
    const absent = mcpRequestHeaders(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { n: null } } },
      declared,
    );
    expect(Object.keys(absent).filter((h) => h.startsWith("mcp-param-"))).toEqual([]);
    expect(paramHeadersOf(undefined)).toEqual([]);
  });

  it.each([
    ["plain", "plain"],
    ["inner space", "inner space"],
    [" edge", "=?base64?IGVkZ2U=?="],
    ["tab\tin", "=?base64?dGFiCWlu?="],
    ["=?base64?abc?=", `=?base64?${Buffer.from("=?base64?abc?=").toString("base64")}?=`],
    ["", "=?base64??="],
    [true, "true"],
    [-12, "-12"],
  ])("encodes %j as %j", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });
});

describe("the testing entry on its own", () => {
  it("loads reflect-metadata itself and serves a component, in a fresh process", () => {
    const kit = path.resolve(__dirname, "../../../dist/src/testing/index.js");
    const main = path.resolve(__dirname, "../../../dist/src/index.js");
    const script = `
      const { createTestClient } = require(${JSON.stringify(kit)});
      const { Tool } = require(${JSON.stringify(main)});
      class Hello { hello() { return "hi"; } }
      Tool()(Hello.prototype, "hello", Object.getOwnPropertyDescriptor(Hello.prototype, "hello"));
      createTestClient([Hello]).then(async (client) => {
        const result = await client.callTool("hello", {});
        console.log(JSON.stringify(result.text));
        await client.close();
      });`;
    expect(execFileSync(process.execPath, ["-e", script]).toString().trim()).toBe('"hi"');
  });
});
