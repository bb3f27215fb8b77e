// Pins x-mcp-header over HTTP (SEP-2243), with raw requests:
// - a DTO property with @JSONSchema({ "x-mcp-header": ... }) and a raw inputSchema both publish
//   the annotation in tools/list unchanged;
// - tools/call with matching Mcp-Param-* headers runs the tool (plain, Base64-wrapped, numeric
//   integers, booleans, a literal that merely looks like Base64);
// - a missing header, a mismatch, a header without its argument, invalid Base64 padding or
//   characters: HTTP 400 with JSON-RPC -32020 echoing the request id, and the tool does not run;
// - tools without annotations and other methods are not affected.
import "reflect-metadata";
import { IsBoolean, IsInt, IsOptional, IsString } from "class-validator";
import { Arg, JSONSchema, McpApp, Tool, type HttpListener } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { meta, rpc } from "../support/raw-http";
import { validateServerMessage } from "../support/wire-schema";

class RouteArgs {
  @IsString() @JSONSchema({ "x-mcp-header": "Region" }) region!: string;
  @IsOptional() @IsInt() @JSONSchema({ "x-mcp-header": "Priority" }) priority?: number;
  @IsOptional() @IsBoolean() @JSONSchema({ "x-mcp-header": "Dry-Run" }) dryRun?: boolean;
}

const calls: unknown[] = [];

class Routing {
  @Tool({ description: "Routes by region" })
  route(@Arg() args: RouteArgs) {
    calls.push(args);
    return `routed to ${args.region}`;
  }

  @Tool({
    description: "Raw schema with a header parameter",
    arguments: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } }, required: ["tenant"] },
  })
  raw_route(@Arg() args: Record<string, unknown>) {
    calls.push(args);
    return `tenant ${String(args.tenant)}`;
  }

  @Tool({ description: "No header parameters" })
  plain() {
    return "plain";
  }
}

const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

describe("Mcp-Param-* headers over HTTP", () => {
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    app = McpApp.create({ components: [Routing], state: { secret: "param-headers-secret-0123456789abcdef" }, logger: new MemoryLogger() });
    listener = await app.listen({ port: 0 });
  });
  beforeEach(() => void calls.splice(0));
  afterAll(() => app.close());

  async function call(name: string, args: Record<string, unknown>, headers: Record<string, string> = {}, id: number | string = 1) {
    const r = await rpc(listener.url, "tools/call", { _meta: meta(), name, arguments: args }, { headers, id });
    for (const m of r.messages) validateServerMessage(m, "tools/call");
    return r;
  }

  it("publishes the annotations unchanged in tools/list", async () => {
    const r = await rpc(listener.url, "tools/list", { _meta: meta() });
    const tools = (r.body!.result as { tools: { name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }[] })
      .tools;
    const route = tools.find((t) => t.name === "route")!.inputSchema.properties;
    expect([route.region!["x-mcp-header"], route.priority!["x-mcp-header"], route.dryRun!["x-mcp-header"]]).toEqual([
      "Region",
      "Priority",
      "Dry-Run",
    ]);
    expect(tools.find((t) => t.name === "raw_route")!.inputSchema.properties.tenant!["x-mcp-header"]).toBe("Tenant");
  });

  it.each([
    [
      "plain values",
      { region: "eu-west", priority: 3, dryRun: true },
      { "Mcp-Param-Region": "eu-west", "Mcp-Param-Priority": "3", "Mcp-Param-Dry-Run": "true" },
    ],
    ["a Base64-wrapped value", { region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=?=" }],
    ["a non-ASCII value in Base64", { region: "Zürich" }, { "Mcp-Param-Region": b64("Zürich") }],
    ["a literal that looks like Base64", { region: "SGVsbG8=" }, { "Mcp-Param-Region": "SGVsbG8=" }],
    ["a half wrapper, which is literal", { region: "=?base64?SGVsbG8=" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=" }],
    ["an integer compared numerically", { region: "eu", priority: 7 }, { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "007" }],
    ["lower-case header names", { region: "eu" }, { "mcp-param-region": "eu" }],
  ])("runs the tool for %s", async (_why, args, headers) => {
    const r = await call("route", args, headers);
    expect(r.status).toBe(200);
    expect(r.body!.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: `routed to ${args.region}` }] });
    expect(calls).toHaveLength(1);
  });

  it.each([
    ["the header is missing", { region: "eu" }, {}],
    ["the value differs", { region: "eu" }, { "Mcp-Param-Region": "us" }],
    ["the case differs", { region: "eu" }, { "Mcp-Param-Region": "EU" }],
    ["the header comes without its argument", { region: "eu" }, { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "1" }],
    ["the Base64 padding is invalid", { region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8?=" }],
    ["the Base64 has foreign characters", { region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" }],
    ["an integer header is not an integer", { region: "eu", priority: 7 }, { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "seven" }],
    ["a boolean header differs", { region: "eu", dryRun: false }, { "Mcp-Param-Region": "eu", "Mcp-Param-Dry-Run": "true" }],
  ])("answers 400 and -32020 when %s", async (_why, args, headers) => {
    const r = await call("route", args, headers, "req-7");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      jsonrpc: "2.0",
      id: "req-7",
      error: { code: -32020, message: expect.stringMatching(/^Header mismatch: Mcp-Param-/) },
    });
    expect(calls).toEqual([]);
  });

  it("checks a raw inputSchema's annotations the same way", async () => {
    expect((await call("raw_route", { tenant: "acme" }, { "Mcp-Param-Tenant": "acme" })).status).toBe(200);
    const missing = await call("raw_route", { tenant: "acme" }, {}, 9);
    expect([missing.status, (missing.body!.error as { code: number }).code, missing.body!.id]).toEqual([400, -32020, 9]);
    expect(calls).toHaveLength(1);
  });

  it("leaves tools without annotations and other methods alone", async () => {
    const r = await call("plain", {}, { "Mcp-Param-Region": "ignored" });
    expect(r.status).toBe(200);
    expect(r.body!.result).toMatchObject({ resultType: "complete" });
    const list = await rpc(listener.url, "tools/list", { _meta: meta() }, { headers: { "Mcp-Param-Region": "x" } });
    expect(list.status).toBe(200);
  });
});
