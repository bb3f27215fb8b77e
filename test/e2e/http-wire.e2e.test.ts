// Pins the exact HTTP wire the framework promises (raw fetch, no client in between):
// - resultType on every result; ttlMs/cacheScope on list results and resources/read; deterministic order
// - error codes and statuses: unknown tool/prompt -32602 (200), unknown/removed method -32601 (404),
//   missing _meta -32602 (400), unsupported version -32022 (400), every error echoing the request id
//   (an unknown resource and a missing prompt argument: foundation.e2e.test.ts, over every boundary)
// - Host and Origin checked against localhost by default (403), accepted for localhost names
// - an authenticator maps requests to a principal and rejects unauthenticated ones with 401
// - close() ends the listener and frees the port
// - every response validates against the official wire schema
import { createServer } from "node:net";
import { createFeatureApp, expectInFlight } from "./fixtures/feature-app";
import { meta, rpc, post } from "../support/raw-http";
import { validateServerMessage } from "../support/wire-schema";
import type { HttpListener, McpApp } from "../../src/index";

describe("HTTP wire", () => {
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    app = createFeatureApp();
    listener = await app.listen({ port: 0 });
  });
  afterAll(() => app.close());

  async function call(method: string, params: Record<string, unknown>, headers?: Record<string, string | undefined>) {
    const response = await rpc(listener.url, method, { _meta: meta(), ...params }, { headers });
    for (const m of response.messages) validateServerMessage(m, method);
    return response;
  }

  it("binds 127.0.0.1 on the default path", () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("stamps resultType and cache hints, in deterministic order", async () => {
    const first = await call("tools/list", {});
    const second = await call("tools/list", {});
    expect(first.status).toBe(200);
    const result = first.body!.result as Record<string, unknown>;
    expect(result.resultType).toBe("complete");
    expect([result.ttlMs, result.cacheScope]).toEqual([0, "private"]);
    expect(second.body!.result).toEqual(result);
    for (const method of ["prompts/list", "resources/list", "resources/templates/list"]) {
      const r = (await call(method, {})).body!.result as Record<string, unknown>;
      expect([r.resultType, r.ttlMs, r.cacheScope]).toEqual(["complete", 0, "private"]);
    }
    const read = (await call("resources/read", { uri: "docs://readme" })).body!.result as Record<string, unknown>;
    expect([read.resultType, read.ttlMs, read.cacheScope]).toEqual(["complete", 60000, "public"]);
    const tool = (await call("tools/call", { name: "ping", arguments: {} })).body!.result as Record<string, unknown>;
    expect(tool).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "pong" }] });
    expect(tool).not.toHaveProperty("ttlMs");
    const prompt = (await call("prompts/get", { name: "plain_prompt" })).body!.result as Record<string, unknown>;
    expect(prompt.resultType).toBe("complete");
    const completion = (
      await call("completion/complete", { ref: { type: "ref/prompt", name: "code_review" }, argument: { name: "language", value: "p" } })
    ).body!.result;
    expect(completion).toEqual(
      expect.objectContaining({ resultType: "complete", completion: { values: ["python"], total: 1, hasMore: false } }),
    );
  });

  it("answers unknown tools and prompts with -32602 and the request id", async () => {
    const tool = await rpc(listener.url, "tools/call", { _meta: meta(), name: "nope", arguments: {} }, { id: "t-1" });
    expect(tool.status).toBe(200);
    expect(tool.body).toEqual({ jsonrpc: "2.0", id: "t-1", error: { code: -32602, message: "Unknown tool: nope" } });
    const prompt = await rpc(listener.url, "prompts/get", { _meta: meta(), name: "nope" }, { id: 77 });
    expect(prompt.body).toEqual({ jsonrpc: "2.0", id: 77, error: { code: -32602, message: "Unknown prompt: nope" } });
  });

  it("answers unknown and removed methods with -32601 and 404", async () => {
    for (const method of ["nope/nope", "ping", "initialize", "logging/setLevel", "resources/subscribe"]) {
      const r = await rpc(listener.url, method, { _meta: meta() }, { id: 9 });
      expect([method, r.status, (r.body!.error as { code: number }).code, r.body!.id]).toEqual([method, 404, -32601, 9]);
    }
  });

  it("answers a request without _meta with -32602 and 400", async () => {
    const r = await rpc(listener.url, "tools/list", {}, { id: 3 });
    expect(r.status).toBe(400);
    expect((r.body!.error as { code: number }).code).toBe(-32602);
    expect(r.body!.id).toBe(3);
  });

  it("answers an unsupported protocol version with -32022, the supported list and the requested one", async () => {
    const r = await rpc(
      listener.url,
      "tools/list",
      { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
      { headers: { "mcp-protocol-version": "1900-01-01" }, id: 4 },
    );
    expect(r.status).toBe(400);
    const error = r.body!.error as { code: number; data: { supported: string[]; requested: string } };
    expect(error.code).toBe(-32022);
    expect(error.data.requested).toBe("1900-01-01");
    expect(error.data.supported).toContain("2026-07-28");
  });

  it("rejects a foreign Host or Origin with 403 and accepts localhost names", async () => {
    const evilHost = await rpcWithHost(listener.port, "evil.example:1234");
    expect(evilHost).toBe(403);
    expect(await rpcWithHost(listener.port, `localhost:${listener.port}`)).toBe(200);
    const evilOrigin = await call("tools/list", {}, { origin: "http://evil.example" });
    expect(evilOrigin.status).toBe(403);
    expect((evilOrigin.body!.error as { message: string }).message).toContain("evil.example");
    expect((await call("tools/list", {}, { origin: `http://localhost:${listener.port}` })).status).toBe(200);
  });

  it("answers GET on the endpoint with 405", async () => {
    const r = await fetch(listener.url, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(r.status).toBe(405);
  });

  it("parses garbage as a JSON-RPC parse error, never a crash", async () => {
    const r = await post(listener.url, "{not json", { "content-type": "application/json", accept: "application/json, text/event-stream" });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });
});

describe("HTTP authentication", () => {
  let app: McpApp;
  let listener: HttpListener;
  beforeAll(async () => {
    app = createFeatureApp();
    listener = await app.listen({
      authenticate: (req) => (req.headers.authorization === "Bearer good" ? "user-1" : null),
    });
  });
  afterAll(() => app.close());

  it("rejects a request the authenticator maps to null with 401", async () => {
    const r = await rpc(listener.url, "tools/list", { _meta: meta() });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
    expect(r.body).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Unauthorized" } });
  });

  it("hands the principal to the component", async () => {
    const r = await rpc(
      listener.url,
      "tools/call",
      { _meta: meta(), name: "whoami", arguments: {} },
      { headers: { authorization: "Bearer good" } },
    );
    expect((r.body!.result as { structuredContent: { principal: string } }).structuredContent.principal).toBe("user-1");
  });
});

describe("HTTP close", () => {
  it("ends in-flight requests", async () => {
    const app = createFeatureApp();
    const listener = await app.listen({ port: 0 });
    const started = expectInFlight();
    const pending = rpc(listener.url, "tools/call", { _meta: meta(), name: "wait_for_abort", arguments: {} }).then(
      (r) => ({ settled: "response" as const, status: r.status }),
      () => ({ settled: "connection closed" as const }),
    );
    await started;
    await listener.close();
    // The request does not hang: it ends with the connection (or an error response), never a result.
    const outcome = await pending;
    if (outcome.settled === "response") expect(outcome.status).not.toBe(200);
    await app.close();
  });

  it("frees the port", async () => {
    const app = createFeatureApp();
    const listener = await app.listen({ port: 0 });
    expect((await rpc(listener.url, "tools/list", { _meta: meta() })).status).toBe(200);
    await listener.close();
    await expect(fetch(listener.url, { method: "POST" })).rejects.toThrow();
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(listener.port, "127.0.0.1", () => probe.close(() => resolve()));
    });
    await app.close();
  });
});

async function rpcWithHost(port: number, host: string): Promise<number> {
  // fetch() does not let a caller set Host; node:http does.
  const http = await import("node:http");
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
