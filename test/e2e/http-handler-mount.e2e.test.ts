// Pins what app.httpHandler() checks when it is mounted in someone else's server (here a plain
// node:http server written below that streams the body through, never parsing it):
// - Mcp-Param-* headers are checked as under listen(): a missing or mismatched header is HTTP 400
//   with -32020 echoing the request id, and the tool does not run; matching headers run it;
// - the same holds when the host server parsed the body itself and passes it as parsedBody;
// - a malformed retry envelope is refused with -32602 naming the entry, as under listen();
// - a body that is not JSON is still the SDK's to answer (parse error), and the server stays up;
// - the deployment guide's fetch-native mount (docs/examples/deployment/mount.ts) passes the
//   principal it authenticated as authInfo.extra.principal: the tool sees it as ctx.principal,
//   null when anonymous, and a request it refuses is 401 before the app runs.
import "reflect-metadata";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { IsString } from "class-validator";
import { Arg, JSONSchema, McpApp, Tool } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { meta, post, rpc } from "../support/raw-http";
import { createFeatureApp } from "./fixtures/feature-app";
import { mountedFetch } from "../../docs/examples/deployment/mount";

class RouteArgs {
  @IsString() @JSONSchema({ "x-mcp-header": "Region" }) region!: string;
}

const calls: string[] = [];

class Routing {
  @Tool({ description: "Routes by region" })
  route(@Arg() args: RouteArgs) {
    calls.push(args.region);
    return `routed to ${args.region}`;
  }
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  return headers;
}

/** A host server of its own: streams bodies to the handler, or parses them first when `parse` is set. */
async function mount(app: McpApp, parse: boolean): Promise<{ url: string; server: Server }> {
  const handler = app.httpHandler();
  const server = createServer(async (req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    let request: Request;
    let parsedBody: unknown;
    if (parse && req.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      parsedBody = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      request = new Request(url, { method: "POST", headers: headersOf(req) });
    } else {
      const body = req.method === "POST" ? (Readable.toWeb(req) as ReadableStream) : undefined;
      request = new Request(url, { method: req.method, headers: headersOf(req), body, duplex: "half" } as RequestInit);
    }
    const response = await handler.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe.each([
  ["streams the body to the handler", false],
  ["parses the body itself", true],
])("app.httpHandler() in a host server that %s", (_how, parse) => {
  let app: McpApp;
  let host: { url: string; server: Server };

  beforeAll(async () => {
    app = McpApp.create({
      components: [Routing],
      state: { secret: "mounted-handler-secret-0123456789abcdef" },
      logger: new MemoryLogger(),
    });
    host = await mount(app, parse);
  });
  beforeEach(() => void calls.splice(0));
  afterAll(async () => {
    await app.close();
    await new Promise<void>((resolve) => host.server.close(() => resolve()));
  });

  const call = (headers: Record<string, string>, id: number | string, extra: Record<string, unknown> = {}) =>
    rpc(host.url, "tools/call", { _meta: meta(), name: "route", arguments: { region: "eu" }, ...extra }, { headers, id });

  it("runs the tool when the Mcp-Param header matches", async () => {
    const r = await call({ "Mcp-Param-Region": "eu" }, 1);
    expect(r.status).toBe(200);
    expect(r.body!.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "routed to eu" }] });
    expect(calls).toEqual(["eu"]);
  });

  it.each([
    ["missing", {}],
    ["different", { "Mcp-Param-Region": "us" }],
  ])("answers 400 and -32020 when the header is %s, and the tool does not run", async (_why, headers) => {
    const r = await call(headers, "req-9");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      jsonrpc: "2.0",
      id: "req-9",
      error: { code: -32020, message: expect.stringMatching(/^Header mismatch: Mcp-Param-Region/) },
    });
    expect(calls).toEqual([]);
  });

  it("refuses a malformed retry envelope with -32602", async () => {
    const r = await call({ "Mcp-Param-Region": "eu" }, 3, { inputResponses: { region: 12345 } });
    expect(r.body).toMatchObject({
      id: 3,
      error: { code: -32602, message: "Invalid retry envelope: inputResponses.region must be an object" },
    });
    expect(calls).toEqual([]);
  });

  if (!parse) {
    it("leaves a body that is not JSON to the SDK, and keeps serving", async () => {
      const r = await post(host.url, "{not json", {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
      });
      expect(r.body).toMatchObject({ error: { code: -32700 } });
      expect((await call({ "Mcp-Param-Region": "eu" }, 4)).status).toBe(200);
    });
  }
});

describe("the deployment guide's fetch-native mount", () => {
  const app = createFeatureApp();
  afterAll(() => app.close());
  const serve = mountedFetch(app, (request) => {
    const user = request.headers.get("x-user");
    return user === null ? undefined : user === "" ? null : user;
  });

  async function whoami(user: string | undefined): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "whoami",
    };
    if (user !== undefined) headers["x-user"] = user;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: meta(), name: "whoami", arguments: {} } });
    return serve(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body }));
  }

  it.each([
    ["alice", "alice"],
    ["", null],
  ])("hands the principal %j to the tool as ctx.principal", async (user, principal) => {
    const response = await whoami(user);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { structuredContent: { principal: unknown } } };
    expect(body.result.structuredContent.principal).toBe(principal);
  });

  it("answers 401 for a request it does not authenticate", async () => {
    const response = await whoami(undefined);
    expect(response.status).toBe(401);
  });
});
