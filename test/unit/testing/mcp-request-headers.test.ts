// Pins the kit's HTTP request headers: protocol version from _meta, Mcp-Method, Mcp-Name per method
// (the features' nameParam), Mcp-Param-* from x-mcp-header, and the =?base64?...?= encoding of
// values that are not plain visible ASCII.
import { encodeHeaderValue, mcpRequestHeaders, paramHeadersOf } from "../../../src/testing/mcp-request-headers";

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
    // The tasks extension's methods, from the tasks feature's specs, though no app here lists that feature.
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"])
      expect(mcpRequestHeaders({ jsonrpc: "2.0", id: 1, method, params: { taskId: "t-1" } })["mcp-name"]).toBe("t-1");
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
