// Pins the health endpoints, on the listener (listen({ health })) and as a handler a mount routes
// (app.healthHandler()):
// - liveness answers 200 {"status":"ok"}; readiness 200 with each check "ok" (the tasks
//   feature's store, and each of options.checks), Cache-Control: no-store; HEAD has no body;
//   another method is 405; the paths are configurable, and a health path equal to the MCP path
//   is refused when listening;
// - the listener answers the probes after the Host and Origin checks (a Host outside allowedHosts
//   is 403, as for every request) and before authentication (a probe has no credentials), while an
//   MCP request without credentials is 401;
// - readiness is 503 with the failing check named: a message bus whose `healthy` is false (then
//   200 again once it is true), a function check that returns false or rejects, one that never
//   settles ("timeout" within timeoutMs, and a pending check is joined, not started again); the
//   reason of a failure goes to the log once per change of verdict, never in the answer;
// - a bus given to the app (`McpAppOptions.bus`) is probed as "messageBus" without being listed in
//   checks: 503 while it is unhealthy; the app's own in-memory bus is not probed;
// - readiness turns 503 "shutting down" as soon as a graceful close begins, while a request in
//   flight still finishes with its result: on a listener (it stops accepting connections: a new
//   probe's connection is refused, a failed probe as a 503 is) and on
//   a mount (the health handler answers 503, the node handler answers new MCP requests 503 with
//   Retry-After, and the one in flight completes).
import "reflect-metadata";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { MemoryMessageBus } from "../../src/stores/index";
import { McpApp } from "../../src/index";
import { meta } from "../support/raw-http";
import { createMountApp, holdNext } from "./fixtures/mount-app";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const probe = async (port: number, path = "/readyz") => {
  const r = await send(port, "GET", path, { host: `127.0.0.1:${port}` });
  return { status: r.status, body: JSON.parse(r.text) as unknown };
};

function callHold(port: number): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { _meta: meta(), name: "hold", arguments: {} } });
  return send(
    port,
    "POST",
    "/mcp",
    {
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "hold",
    },
    body,
  );
}

describe("listen({ health })", () => {
  let app: McpApp;
  afterEach(() => app.close());

  it("answers liveness and readiness after the Host check and before authentication", async () => {
    ({ app } = createMountApp());
    const listener = await app.listen({ health: true, authenticate: () => null });
    const live = await send(listener.port, "GET", "/healthz", { host: `127.0.0.1:${listener.port}` });
    expect([live.status, JSON.parse(live.text), live.headers["cache-control"]]).toEqual([200, { status: "ok" }, "no-store"]);
    expect(await probe(listener.port)).toEqual({ status: 200, body: { status: "ok", checks: { taskStore: "ok" } } });
    const mcp = await send(listener.port, "POST", "/mcp", { host: `127.0.0.1:${listener.port}`, "content-type": "application/json" }, "{}");
    expect(mcp.status).toBe(401);
    // A probe names a host the listener accepts (Kubernetes: httpHeaders), like every request.
    expect((await send(listener.port, "GET", "/readyz", { host: "10.1.2.3:8080" })).status).toBe(403);
  });

  it("answers HEAD without a body, refuses other methods with 405, and serves configured paths", async () => {
    ({ app } = createMountApp());
    const listener = await app.listen({ health: { livenessPath: "/live", readinessPath: "/ready" } });
    const head = await send(listener.port, "HEAD", "/ready");
    expect([head.status, head.text]).toEqual([200, ""]);
    const post = await send(listener.port, "POST", "/live", {}, "{}");
    expect([post.status, post.headers.allow]).toEqual([405, "GET, HEAD"]);
    expect((await send(listener.port, "GET", "/healthz")).status).toBe(404);
  });

  it("refuses a health path equal to the MCP path", async () => {
    ({ app } = createMountApp());
    await expect(app.listen({ path: "/readyz", health: true })).rejects.toThrow("listen: the health paths must differ from path");
  });

  it("turns readiness false as soon as a graceful close begins, and lets the request in flight finish", async () => {
    ({ app } = createMountApp());
    const listener = await app.listen({ health: true });
    const held = holdNext();
    const inFlight = callHold(listener.port);
    await held.running;
    expect((await probe(listener.port)).status).toBe(200);
    const closing = app.close();
    const during = await send(listener.port, "GET", "/readyz").catch((error: Error) => error);
    // A closing listener accepts no connection: the probe fails at once (refused, or reset when it
    // reached the socket in the instant it closed).
    expect(["ECONNREFUSED", "ECONNRESET"]).toContain((during as NodeJS.ErrnoException).code);
    held.release();
    const answer = await inFlight;
    expect(JSON.parse(answer.text)).toMatchObject({ id: 7, result: { content: [{ text: "released" }] } });
    await closing;
  });
});

describe("app.healthHandler() on a mount", () => {
  let app: McpApp;
  let server: Server | undefined;
  afterEach(async () => {
    await app.close();
    await new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve()));
    server = undefined;
  });

  async function mount(options: Parameters<McpApp["healthHandler"]>[0] = {}): Promise<number> {
    const web = express();
    const health = app.healthHandler(options);
    web.get(["/healthz", "/readyz"], (req, res) => health.node(req, res));
    web.all("/mcp", app.nodeHandler());
    server = web.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server!.once("listening", () => resolve()));
    return (server.address() as AddressInfo).port;
  }

  it("follows a message bus and a healthy flag: 503 naming each while it is unhealthy, ok again once the flag is back", async () => {
    let logger;
    ({ app, logger } = createMountApp());
    const bus = new MemoryMessageBus();
    let healthy = true;
    const port = await mount({
      checks: {
        bus,
        sessions: {
          get healthy() {
            return healthy;
          },
        },
      },
    });
    expect(await probe(port)).toEqual({ status: 200, body: { status: "ok", checks: { taskStore: "ok", bus: "ok", sessions: "ok" } } });
    healthy = false;
    await bus.close();
    expect(await probe(port)).toEqual({
      status: 503,
      body: { status: "unavailable", checks: { taskStore: "ok", bus: "failed", sessions: "failed" } },
    });
    expect(await probe(port)).toEqual({ status: 503, body: expect.objectContaining({ status: "unavailable" }) });
    healthy = true;
    expect((await probe(port)).body).toMatchObject({ checks: { sessions: "ok", bus: "failed" } });
    // One line per change of verdict, with the reasons; the answers carry none.
    const notReady = logger.entries.filter((e) => e.message === "not ready");
    expect(notReady).toHaveLength(1);
    expect(notReady[0]!.fields).toMatchObject({ reasons: { bus: "bus reports healthy: false" } });
  });

  it("counts a check that returns false or rejects as failed, and one that never settles as a timeout, joined while pending", async () => {
    ({ app } = createMountApp());
    let started = 0;
    const port = await mount({
      timeoutMs: 50,
      checks: {
        no: () => false,
        broken: () => Promise.reject(new Error("db at 10.0.0.5 refused")),
        frozen: () => {
          started++;
          return new Promise(() => undefined);
        },
        fine: async () => true,
      },
    });
    const first = await probe(port);
    expect(first).toEqual({
      status: 503,
      body: { status: "unavailable", checks: { taskStore: "ok", no: "failed", broken: "failed", frozen: "timeout", fine: "ok" } },
    });
    expect(JSON.stringify(first.body)).not.toContain("10.0.0.5");
    await probe(port);
    expect(started).toBe(1);
  });

  it("turns readiness false once close() begins; new MCP requests get 503 and the one in flight finishes", async () => {
    ({ app } = createMountApp());
    const port = await mount();
    const held = holdNext();
    const inFlight = callHold(port);
    await held.running;
    expect((await probe(port)).status).toBe(200);
    const closing = app.close();
    expect(await probe(port)).toEqual({ status: 503, body: { status: "unavailable", reason: "shutting down" } });
    const refused = await callHold(port);
    expect([refused.status, refused.headers["retry-after"]]).toEqual([503, "1"]);
    held.release();
    expect(JSON.parse((await inFlight).text)).toMatchObject({ id: 7, result: { content: [{ text: "released" }] } });
    await closing;
  });

  it("answers the same through fetch", async () => {
    ({ app } = createMountApp());
    const health = app.healthHandler();
    const live = await health.fetch(new Request("http://pod/healthz"));
    expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    expect((await health.fetch(new Request("http://pod/elsewhere"))).status).toBe(404);
    expect(await health.readiness()).toEqual({ status: "ok", checks: { taskStore: "ok" } });
  });
});

describe("readiness and the app's bus", () => {
  it("probes a bus given to the app as messageBus, and not the app's own bus", async () => {
    const bus = new MemoryMessageBus();
    const shared = McpApp.create({ name: "bus-probe", components: [], state: { ephemeral: true }, bus });
    const own = McpApp.create({ name: "own-bus", components: [], state: { ephemeral: true } });
    const listeners = [await shared.listen({ health: true }), await own.listen({ health: true })];
    try {
      const [sharedPort, ownPort] = listeners.map((l) => l.port) as [number, number];
      expect(await probe(sharedPort)).toEqual({ status: 200, body: { status: "ok", checks: { messageBus: "ok" } } });
      expect(await probe(ownPort)).toEqual({ status: 200, body: { status: "ok", checks: {} } });
      await bus.close();
      expect(await probe(sharedPort)).toEqual({ status: 503, body: { status: "unavailable", checks: { messageBus: "failed" } } });
    } finally {
      await shared.close();
      await own.close();
    }
  });
});
