// Pins that the app mounted in each web framework makes every check the built-in listener makes,
// by one table of cases run against listen() and against each mount of the deployment guide
// (docs/examples/deployment/mount-*.ts: node:http, Express 5, Fastify 5, Hono 4 on
// @hono/node-server), all with the same expected answers:
// - a plain tools/call answers 200 with the tool's text; an @Elicit round trip asks
//   (input_required with requestState) and completes from the answer carried back;
// - Host outside allowedHosts is 403, a foreign Origin is 403, an allowed name in Host passes;
// - request limits: a body declared over maxBodyBytes is 413 (-32600, limit maxBodyBytes), one
//   over a structural limit is 400 -32602 echoing the id;
// - Mcp-Param-* headers: a mismatch is 400 -32020 echoing the id;
// - authentication: no credentials is 401 with WWW-Authenticate: Bearer; credentials reach the
//   tool as ctx.principal;
// - timeouts: a stalled body is 408 and the connection closes after requestTimeoutMs; a tool past
//   its timeoutMs is -32603 "Request timed out";
// - the health endpoints each mount routes (app.healthHandler()) answer /healthz 200 and /readyz
//   200 with the task store's check, like listen({ health: true });
// - every mount's answers to the whole table (status, content-type, www-authenticate,
//   retry-after, allow, and the body byte for byte, sealed requestState aside) equal listen()'s;
// and what happens to a body a framework's parser already read: express.json() in front is
// accepted (the parsed message, checked against the limits and headers as a raw one); a raw
// Buffer (express.raw()) is accepted as the text; Fastify's own JSON parser and Hono's
// c.req.json() keep nothing for the handler, which answers 500 naming the fix (and logs it once),
// and Hono passing the parsed message in req.body is accepted.
import "reflect-metadata";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { serve, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { McpApp, NodeHandlerOptions } from "../../src/index";
import type { MemoryLogger } from "../../src/testing/index";
import { meta } from "../support/raw-http";
import { createMountApp } from "./fixtures/mount-app";
import { nodeHttpServer } from "../../docs/examples/deployment/mount-node-http";
import { expressServer } from "../../docs/examples/deployment/mount-express";
import { fastifyServer } from "../../docs/examples/deployment/mount-fastify";
import { honoApp } from "../../docs/examples/deployment/mount-hono";

const TOKEN = "Bearer mount-token";
const OPTIONS: NodeHandlerOptions = {
  allowedHosts: ["127.0.0.1", "mcp.example.com"],
  authenticate: (req) => (req.headers.authorization === TOKEN ? "alice" : null),
  requestTimeoutMs: 300,
};

interface Running {
  port: number;
  close(): Promise<void>;
}

const listening = (server: Server): Promise<Running> =>
  new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );

/** Each way of serving the app: the listener, and every mount of the guide. */
const MOUNTS: [string, (app: McpApp) => Promise<Running>][] = [
  [
    "listen()",
    async (app) => {
      const listener = await app.listen({ ...OPTIONS, health: true, requestTimeoutMs: OPTIONS.requestTimeoutMs });
      return { port: listener.port, close: () => listener.close() };
    },
  ],
  ["node:http", (app) => listening(nodeHttpServer(app, OPTIONS))],
  ["Express 5", (app) => listening(expressServer(app, OPTIONS).listen(0, "127.0.0.1"))],
  [
    "Fastify 5",
    async (app) => {
      const server = fastifyServer(app, OPTIONS);
      await server.listen({ port: 0, host: "127.0.0.1" });
      return { port: (server.server.address() as AddressInfo).port, close: () => server.close() };
    },
  ],
  [
    "Hono 4 (@hono/node-server)",
    (app) =>
      new Promise((resolve) => {
        const server = serve({ fetch: honoApp(app, OPTIONS).fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
          resolve({ port: info.port, close: () => new Promise<void>((done) => server.close(() => done())) }),
        ) as Server;
      }),
  ],
];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json?: Record<string, unknown>;
}

/** Every answer each way of serving got, in order: the same requests must get the same answers. */
const transcripts = new Map<string, unknown[]>();
let transcript: unknown[] | undefined;

/** An answer as compared across mounts: status, the headers a client acts on, the body (sealed state aside, random by design). */
function recorded(answer: Answer): unknown {
  const body = answer.text.replace(/"requestState":"[^"]+"/g, '"requestState":"<sealed>"');
  const headers = ["content-type", "www-authenticate", "retry-after", "allow"].map((name) => answer.headers[name]);
  return { status: answer.status, headers, body };
}

/** One request over node:http, so Host and Content-Length can be anything. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string; stall?: boolean },
): Promise<Answer & { closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        const closed = new Promise<void>((done) => res.socket.once("close", () => done()));
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, unknown> | undefined;
          try {
            json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
          } catch {
            json = undefined;
          }
          const answer = { status: res.statusCode!, headers: res.headers, text, json, closed };
          transcript?.push(recorded(answer));
          resolve(answer);
        });
      },
    );
    req.on("error", reject);
    if (options.stall) req.write(options.body ?? "");
    else req.end(options.body);
  });
}

const HEADERS = (port: number, method: string, name: string, extra: Record<string, string> = {}) => ({
  host: `127.0.0.1:${port}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  "mcp-name": name,
  authorization: TOKEN,
  ...extra,
});

function call(
  port: number,
  name: string,
  args: Record<string, unknown>,
  extra: Record<string, string> = {},
  params: object = {},
  id: number | string = 1,
) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { _meta: meta({ elicitation: { form: {} } }), name, arguments: args, ...params },
  });
  return send(port, { headers: HEADERS(port, "tools/call", name, extra), body });
}

describe.each(MOUNTS)("the app served by %s", (_name, start) => {
  let app: McpApp;
  let running: Running;
  let port: number;

  beforeAll(async () => {
    ({ app } = createMountApp());
    running = await start(app);
    port = running.port;
    transcripts.set(_name, (transcript = []));
  });
  afterAll(async () => {
    transcript = undefined;
    await running.close();
    await app.close();
  });

  it("answers a plain call", async () => {
    const r = await call(port, "route", { region: "eu" }, { "mcp-param-region": "eu" });
    expect(r.status).toBe(200);
    expect(r.json?.result).toMatchObject({ content: [{ type: "text", text: "routed to eu" }] });
  });

  it("carries an @Elicit round trip to its end", async () => {
    const first = await call(port, "paint", {}, {}, {}, "e1");
    expect(first.json).toMatchObject({
      id: "e1",
      result: { resultType: "input_required", inputRequests: { colour: { method: "elicitation/create" } } },
    });
    const state = (first.json!.result as { requestState: string }).requestState;
    const second = await call(
      port,
      "paint",
      {},
      {},
      { inputResponses: { colour: { action: "accept", content: { colour: "green" } } }, requestState: state },
      "e2",
    );
    expect(second.json).toMatchObject({ id: "e2", result: { resultType: "complete", content: [{ type: "text", text: "painted green" }] } });
  });

  it.each([
    ["a Host outside allowedHosts with 403", { host: "evil.example" }, 403],
    ["a foreign Origin with 403", { origin: "http://evil.example" }, 403],
    ["an allowed host name with 200", { host: "mcp.example.com" }, 200],
  ])("answers %s", async (_why, headers, status) => {
    const r = await call(port, "whoami", {}, headers);
    expect(r.status).toBe(status);
    if (status === 403) expect(r.json).toMatchObject({ error: { code: -32000 } });
  });

  it("refuses a body declared over maxBodyBytes with 413 before reading it", async () => {
    const r = await send(port, {
      headers: { ...HEADERS(port, "tools/call", "whoami"), "content-length": String(2 * 1024 * 1024) },
      stall: true,
      body: "{",
    });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ error: { code: -32600, data: { limit: "maxBodyBytes" } } });
  });

  it("refuses a body over a structural limit with 400 -32602 echoing the id", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    const r = await call(port, "whoami", { deep }, {}, {}, "deep-1");
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ id: "deep-1", error: { code: -32602, data: { limit: "maxDepth" } } });
  });

  it("checks Mcp-Param-* headers: a mismatch is 400 -32020", async () => {
    const r = await call(port, "route", { region: "eu" }, { "mcp-param-region": "us" }, {}, "h-1");
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      id: "h-1",
      error: { code: -32020, message: expect.stringMatching(/^Header mismatch: Mcp-Param-Region/) },
    });
  });

  it("answers 401 without credentials, and hands the principal to the tool with them", async () => {
    const refused = await call(port, "whoami", {}, { authorization: "Bearer wrong" });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe("Bearer");
    const served = await call(port, "whoami", {});
    expect(served.json?.result).toMatchObject({ structuredContent: { principal: "alice" } });
  });

  it("answers a stalled body 408 and closes the connection after requestTimeoutMs", async () => {
    const started = Date.now();
    const r = await send(port, {
      headers: { ...HEADERS(port, "tools/call", "whoami"), "content-length": "1000" },
      body: '{"jsonrpc"',
      stall: true,
    });
    expect(r.status).toBe(408);
    await r.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers a tool past its timeoutMs with -32603 Request timed out", async () => {
    const r = await call(port, "stall", {});
    expect(r.json).toMatchObject({ error: { code: -32603, message: "Request timed out", data: { timeoutMs: 50 } } });
  });

  it("answers the health endpoints", async () => {
    const live = await send(port, { method: "GET", path: "/healthz", headers: { host: "mcp.example.com" } });
    expect([live.status, live.json]).toEqual([200, { status: "ok" }]);
    const ready = await send(port, { method: "GET", path: "/readyz", headers: { host: "mcp.example.com" } });
    expect([ready.status, ready.json]).toEqual([200, { status: "ok", checks: { taskStore: "ok" } }]);
  });
});

describe("the same answers everywhere", () => {
  it.each(MOUNTS.slice(1).map(([name]) => [name]))("%s answered every request as listen() did, byte for byte", (name) => {
    const reference = transcripts.get("listen()")!;
    expect(reference.length).toBeGreaterThan(10);
    expect(transcripts.get(name)).toEqual(reference);
  });
});

describe("a body a framework's parser already read", () => {
  let app: McpApp;
  let logger: MemoryLogger;
  const running: Running[] = [];

  beforeEach(() => ({ app, logger } = createMountApp()));
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
    await app.close();
  });

  async function expressWith(parser: express.RequestHandler): Promise<number> {
    const server = express();
    server.post("/mcp", parser, app.nodeHandler(OPTIONS));
    const r = await listening(server.listen(0, "127.0.0.1"));
    running.push(r);
    return r.port;
  }

  it("accepts the message express.json() parsed, with the same checks as a raw body", async () => {
    const port = await expressWith(express.json());
    expect((await call(port, "route", { region: "eu" }, { "mcp-param-region": "eu" })).json?.result).toMatchObject({
      content: [{ text: "routed to eu" }],
    });
    const mismatch = await call(port, "route", { region: "eu" }, { "mcp-param-region": "us" }, {}, 9);
    expect([mismatch.status, (mismatch.json?.error as { code: number }).code, mismatch.json?.id]).toEqual([400, -32020, 9]);
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    const over = await call(port, "whoami", { deep }, {}, {}, "d");
    expect([over.status, over.json?.id, (over.json?.error as { code: number }).code]).toEqual([400, "d", -32602]);
  });

  it("accepts the raw body express.raw() kept, as the text", async () => {
    const port = await expressWith(express.raw({ type: "*/*" }));
    expect((await call(port, "whoami", {})).json?.result).toMatchObject({ structuredContent: { principal: "alice" } });
  });

  it("answers 500 naming the fix when Fastify's JSON parser read the body", async () => {
    const server = Fastify();
    const mcp = app.nodeHandler(OPTIONS);
    server.post("/mcp", (request, reply) => (reply.hijack(), mcp(request.raw, reply.raw)));
    await server.listen({ port: 0, host: "127.0.0.1" });
    running.push({ port: 0, close: () => server.close() });
    const port = (server.server.address() as AddressInfo).port;
    for (const id of [1, 2]) {
      const r = await call(port, "whoami", {}, {}, {}, id);
      expect(r.status).toBe(500);
      expect(r.json?.error).toEqual({
        code: -32603,
        message: expect.stringMatching(/mount the handler before any body parser .*req\.body/),
      });
    }
    expect(logger.entries.filter((e) => e.level === "error" && /already read by a body parser/.test(e.message))).toHaveLength(1);
  });

  it.each([
    ["answers 500 when c.req.json() read it", false, 500],
    ["accepts it when the parsed message is left in req.body", true, 200],
  ])("Hono: %s", async (_how, keep, status) => {
    const hono = new Hono<{ Bindings: HttpBindings }>();
    const mcp = app.nodeHandler(OPTIONS);
    hono.post("/mcp", async (c) => {
      const body: unknown = await c.req.json();
      if (keep) Object.assign(c.env.incoming, { body });
      mcp(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
    const port = await new Promise<number>((resolve) => {
      const server = serve({ fetch: hono.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)) as Server;
      running.push({ port: 0, close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
    });
    const r = await call(port, "whoami", {});
    expect(r.status).toBe(status);
    if (keep) expect(r.json?.result).toMatchObject({ structuredContent: { principal: "alice" } });
    else expect(r.json?.error).toMatchObject({ code: -32603, message: expect.stringContaining("already read by a body parser") });
  });
});
