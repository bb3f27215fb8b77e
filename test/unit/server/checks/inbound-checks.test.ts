// Pins InboundChecks.run, the one ordered list of inbound checks per transport kind:
// - HTTP: the structural limits (walked only when the message was not parsed from scanned text),
//   then an MCP id (a fractional id is -32600 without echoing it), then a JSON-RPC message check
//   for objects only (arrays stay the SDK's), then the Mcp-Param-* headers; a request without a
//   JSON body (message undefined) passes the list;
// - stream (stdio, in-memory, serve): the limits, then the JSON-RPC message check (arrays too:
//   "batches are not supported"), then a known protocol version (-32022 naming the supported one);
// - the first refusal in list order wins;
// - the JSON-RPC check's fast path (isPlainRequest) accepts only requests the SDK's parse accepts,
//   and leaves every other shape (typed _meta keys, unsafe ids, extra keys, responses) to that parse.
import "reflect-metadata";
import { BUILT_IN_FEATURES } from "../../../../src/features/built-in-features";
import { FeatureTable } from "../../../../src/features/feature-table";
import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { InboundChecks, isPlainRequest } from "../../../../src/server/checks/inbound-checks";
import { resolveRequestLimits } from "../../../../src/server/checks/request-limits";
import type { TransportFacts } from "../../../../src/server/request/transport-facts";
import { SilentLogger } from "../../../../src/testing/index";

const checks = new InboundChecks(
  new FeatureTable(BUILT_IN_FEATURES, { components: [], logger: new SilentLogger() }),
  resolveRequestLimits({ maxDepth: 3 }),
);
const received: TransportFacts = { transport: "http", principal: null, ownBytes: false };
const scanned: TransportFacts = { ...received, ownBytes: true };
const deep = { a: { b: { c: { d: 1 } } } };
const header = () => undefined;

describe("InboundChecks.run('http')", () => {
  it("lets a request without a JSON body and a well-formed request pass", () => {
    expect(checks.run("http", { message: undefined, facts: received, header })).toBeUndefined();
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    expect(checks.run("http", { message, facts: received, header })).toBeUndefined();
  });

  it("walks the limits first, and only for a message not parsed from scanned text", () => {
    const message = { jsonrpc: "2.0", id: 1.5, method: "tools/list", params: deep };
    expect(checks.run("http", { message, facts: received, header })).toMatchObject({ code: -32602, data: { limit: "maxDepth" } });
    expect(checks.run("http", { message, facts: scanned, header })).toMatchObject({
      code: -32600,
      message: "Invalid Request: the id must be a string or an integer",
    });
  });

  it("refuses an object that is not a JSON-RPC message, and leaves an array to the SDK", () => {
    expect(checks.run("http", { message: { id: 1, method: 3 }, facts: received, header })).toMatchObject({ code: -32600, status: 400 });
    expect(checks.run("http", { message: [{ jsonrpc: "2.0", id: 1, method: "ping" }], facts: received, header })).toBeUndefined();
  });
});

describe("InboundChecks.run('stream')", () => {
  const facts: TransportFacts = { transport: "connection", principal: null, ownBytes: false };

  it("refuses a batch, and an unknown protocol version naming the supported one", () => {
    expect(checks.run("stream", { message: [], facts })).toMatchObject({ message: "Invalid Request: batches are not supported" });
    const message = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
    };
    expect(checks.run("stream", { message, facts })).toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"], requested: "1999-01-01" },
    });
  });

  it("walks the limits before the message check", () => {
    expect(checks.run("stream", { message: { params: deep }, facts })).toMatchObject({ code: -32602, data: { limit: "maxDepth" } });
    expect(checks.run("stream", { message: { params: deep }, facts: { ...facts, ownBytes: true } })).toMatchObject({ code: -32600 });
  });
});

describe("isPlainRequest (the JSON-RPC check's fast path)", () => {
  const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const accepted = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", _meta: envelope } },
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", id: 0, method: "tools/list", params: {} },
  ];
  const leftToTheSdk = [
    { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: 1.5 } } },
    { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: "p" } } },
    { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { "io.modelcontextprotocol/related-task": {} } } },
    { jsonrpc: "2.0", id: 2 ** 60, method: "ping" },
    { jsonrpc: "2.0", id: 1, method: "ping", extra: true },
    { jsonrpc: "2.0", id: 1, method: "ping", params: [] },
    { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: [] } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "1.0", id: 1, method: "ping" },
  ];

  it("accepts the common request shapes, each one the SDK's parse accepts", () => {
    for (const message of accepted) {
      expect(isPlainRequest(message)).toBe(true);
      expect(() => parseJSONRPCMessage(message)).not.toThrow();
    }
  });

  it("leaves every other shape to the SDK's parse, whose verdict the check keeps", () => {
    for (const message of leftToTheSdk) {
      expect(isPlainRequest(message)).toBe(false);
      let sdkAccepts = true;
      try {
        parseJSONRPCMessage(message);
      } catch {
        sdkAccepts = false;
      }
      const rejection = checks.run("http", { message, facts: received, header });
      expect(rejection === undefined).toBe(sdkAccepts);
    }
  });
});
