// Pins, over in-process, stdio and HTTP (raw JSON-RPC, every message checked against the wire schema):
// - every request limit holds on every transport and is answered -32602 with a short message that
//   names the limit (data.limit, data.maximum), echoing the request's id: nesting depth (2,000
//   levels in tool arguments is -32602, not -32603 "Maximum call stack size exceeded"), keys of
//   one object (1,001 extra keys in _meta), total keys, total array elements, string length;
// - params that do not have their method's wire shape are -32602 with one line naming the first
//   problem, where the SDK alone answers -32603 with a validator dump: resources/read uri 5,
//   prompts/get without a name or with a non-string argument, completion/complete with a malformed
//   ref, a list cursor that is not a string; tools/call keeps -32602, now one line too;
// - an error echoes a handful of short violations, never a copy of the input: 900 unknown
//   argument keys (raw JSON Schema and DTO tools alike) give a short text with "and N more";
// - the connection keeps serving after every refusal.
import { BOUNDARIES, serveRaw } from "../support/boundaries";
import type { WireResponse } from "../support/raw-session";
import { createFeatureApp } from "./fixtures/feature-app";
import { DEFAULT_REQUEST_LIMITS } from "../../src/index";

const { maxKeys, maxObjectKeys, maxArrayItems, maxDepth } = DEFAULT_REQUEST_LIMITS;

function deep(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = { down: value };
  return value;
}

function keys(count: number, prefix = "k"): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i]));
}

describe.each(BOUNDARIES)("request limits over %s", (name) => {
  // A lower string limit than the default, so that a string over it fits the body limit.
  const served = serveRaw(name, () => createFeatureApp({ limits: { maxStringLength: 1000 } }), "feature", {
    FIXTURE_LIMITS: JSON.stringify({ maxStringLength: 1000 }),
  });
  const request = (method: string, params: Record<string, unknown>) => served.raw.request(method, params);

  afterEach(async () => {
    // Still serving.
    const ping = await request("tools/call", { name: "ping", arguments: {} });
    expect(ping.result).toMatchObject({ content: [{ type: "text", text: "pong" }] });
  });

  function expectLimit(response: WireResponse, limit: string, maximum: number): void {
    expect(response.error).toEqual({ code: -32602, message: expect.stringContaining(`limit ${limit}`), data: { limit, maximum } });
    expect(response.error!.message.length).toBeLessThan(100);
  }

  it("refuses 2,000 levels of nesting in tool arguments with -32602 naming maxDepth", async () => {
    expectLimit(await request("tools/call", { name: "whoami", arguments: { x: deep(2000) } }), "maxDepth", maxDepth);
  });

  it("refuses an object with more keys than maxObjectKeys, even in _meta", async () => {
    const response = await request("tools/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        ...keys(maxObjectKeys + 1),
      },
    });
    expectLimit(response, "maxObjectKeys", maxObjectKeys);
  });

  it("refuses more keys in all than maxKeys", async () => {
    const args = Object.fromEntries(Array.from({ length: Math.ceil(maxKeys / 900) + 1 }, (_, i) => [`o${i}`, keys(900)]));
    expectLimit(await request("tools/call", { name: "whoami", arguments: args }), "maxKeys", maxKeys);
  });

  it("refuses more array elements in all than maxArrayItems", async () => {
    const column = new Array(maxArrayItems / 2 + 1).fill(0);
    expectLimit(await request("tools/call", { name: "whoami", arguments: { a: column, b: column } }), "maxArrayItems", maxArrayItems);
  });

  it("refuses a string longer than maxStringLength", async () => {
    expectLimit(await request("tools/call", { name: "whoami", arguments: { text: "x".repeat(1001) } }), "maxStringLength", 1000);
  });

  it.each([
    ["resources/read", { uri: 5 }, "Invalid params for resources/read: uri must be string"],
    ["resources/read", {}, "Invalid params for resources/read: uri is required"],
    ["prompts/get", { arguments: { language: "ts" } }, "Invalid params for prompts/get: name is required"],
    [
      "prompts/get",
      { name: "code_review", arguments: { language: 1 } },
      "Invalid params for prompts/get: arguments.language must be string",
    ],
    [
      "completion/complete",
      { ref: { type: "ref/nope" }, argument: { name: "a", value: "b" } },
      "Invalid params for completion/complete: ref.type must be equal to one of the allowed values",
    ],
    [
      "completion/complete",
      { ref: { type: "ref/prompt" }, argument: { name: "a", value: "b" } },
      "Invalid params for completion/complete: ref.name is required",
    ],
    [
      "completion/complete",
      { ref: { type: "ref/prompt", name: "code_review" } },
      "Invalid params for completion/complete: argument is required",
    ],
    ["tools/list", { cursor: 5 }, "Invalid params for tools/list: cursor must be string"],
    ["prompts/list", { cursor: {} }, "Invalid params for prompts/list: cursor must be string"],
    ["tools/call", { name: 5 }, "Invalid params for tools/call: name must be string"],
    ["tools/call", { name: "ping", arguments: [] }, "Invalid params for tools/call: arguments must be object"],
  ])("answers %s with params %j by -32602 in one line", async (method, params, message) => {
    const response = await request(method, params);
    expect(response.error).toEqual({ code: -32602, message });
  });

  it.each([
    ["a raw JSON Schema", "echo_raw", { items: ["a"] }],
    ["a DTO", "greet", { name: "Ada" }],
  ])("echoes a handful of short violations for 900 unknown argument keys (%s)", async (_kind, tool, valid) => {
    const response = await request("tools/call", { name: tool, arguments: { ...valid, ...keys(900, "unknown_argument_") } });
    const result = response.result as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    const text = result.content[0]!.text;
    expect(text).toMatch(/and \d+ more/);
    expect(text.length).toBeLessThan(800);
    expect(text.split("; ").length).toBeLessThanOrEqual(6);
  });
});
