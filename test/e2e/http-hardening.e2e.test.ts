// Pins what the HTTP listener and a mounted httpHandler() do with hostile or careless peers
// (raw TCP sockets where fetch would hide it):
// - a Host header carrying user info (a@localhost:PORT, user:pass@127.0.0.1:PORT) is 403, not 500;
// - TRACE, which a web Request cannot carry, is 405 like any other non-POST, not 500;
//   an absolute-form request target (POST http://elsewhere/mcp) is served by its path, not 500;
// - a body declared over maxBodyBytes by Content-Length is answered 413 before it is read, and the
//   answer reaches a client that keeps sending: no reset, no EPIPE; the connection then closes;
// - the 413 says Connection: close, so a keep-alive client opens a new connection for its next
//   request instead of losing it on the closing one;
// - a chunked body that passes the cap gets the same 413, delivered before the connection closes;
// - Expect: 100-continue with a declared body over the cap is refused before the body is sent;
// - a stalled body (1 MiB declared, 20 bytes sent) ends with 408 and a closed connection after
//   requestTimeoutMs, not after Node's default 300 s; the options are checked when listening;
// - maxConnections: every connection over the cap reads a whole 503 with Retry-After: 1 and
//   Connection: close (no reset), the connections under it keep working, and a freed one makes room;
//   each is answered once its request is read, never before; a burst over the cap is held up to
//   four times the cap at once, and only connections past that (a flood) are cut without an answer;
// - the structural limits are checked on the raw body before it is parsed: 400, -32602, the id echoed;
// - an id with a fraction is 400 -32600 without the id, never echoed (MCP ids are strings or integers);
// - a body that is not a JSON-RPC message ({"jsonrpc":"2.0","id":77,"method":5}) is 400 -32600
//   carrying its id 77, on the listener and on a mounted handler (body read or parsedBody handed);
//   a batch array is not refused by that check: the SDK still serves 2025-era batches;
// - a mounted httpHandler() applies the same limits: on a body it reads (413 over maxBodyBytes,
//   400 -32602 over a structural limit) and on a parsedBody its host hands it.
import { Agent, request } from "node:http";
import { type Socket, connect } from "node:net";
import { createFeatureApp } from "./fixtures/feature-app";
import { exchange, filler, keepAlive } from "../support/raw-socket";
import { meta } from "../support/raw-http";
import { DEFAULT_REQUEST_LIMITS, type HttpListener, type McpApp } from "../../src/index";

const MAX_BODY = DEFAULT_REQUEST_LIMITS.maxBodyBytes;

const MCP_HEADERS = "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28";

function head(port: number, extra: string, host = `127.0.0.1:${port}`): string {
  return `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n${MCP_HEADERS}\r\n${extra}`;
}

describe("HTTP listener against hostile peers", () => {
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    app = createFeatureApp();
    listener = await app.listen({ port: 0 });
  });
  afterAll(() => app.close());

  it.each(["a@localhost", "user:pass@127.0.0.1"])("refuses the Host header %s:PORT with 403", async (host) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
    const out = await exchange(listener.port, {
      head: head(
        listener.port,
        `Mcp-Method: tools/list\r\nContent-Length: ${body.length}\r\nConnection: close`,
        `${host}:${listener.port}`,
      ),
      body: [Buffer.from(body)],
    });
    expect(out.status).toBe(403);
    expect(out.body).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Invalid Host header" } });
  });

  it("answers TRACE (which a web Request cannot carry) with 405 like any method but POST", async () => {
    const out = await exchange(listener.port, { head: `TRACE /mcp HTTP/1.1\r\nHost: 127.0.0.1:${listener.port}\r\nConnection: close` });
    expect(out.status).toBe(405);
    expect(out.received).toMatch(/\r\nallow: POST\r\n/i);
    expect(out.body).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." } });
  });

  it("serves an absolute-form request target by its path", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
    const out = await exchange(listener.port, {
      head: `POST http://elsewhere.example/mcp HTTP/1.1\r\nHost: 127.0.0.1:${listener.port}\r\n${MCP_HEADERS}\r\nMcp-Method: tools/list\r\nContent-Length: ${body.length}\r\nConnection: close`,
      body: [Buffer.from(body)],
    });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });

  it("answers a body declared over the cap with 413 that reaches a client still sending, then closes cleanly", async () => {
    const total = 10 * 1024 * 1024;
    const out = await exchange(listener.port, {
      head: head(listener.port, `Mcp-Method: tools/list\r\nContent-Length: ${total}`),
      body: filler(total / (64 * 1024)),
    });
    expect(out.error).toBeUndefined();
    expect(out.status).toBe(413);
    expect(out.body).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: `Request too large: the body exceeds ${MAX_BODY} bytes (limit maxBodyBytes)`,
        data: { limit: "maxBodyBytes", maximum: MAX_BODY },
      },
    });
  });

  it("tells a keep-alive client to close after a 413, so its next request goes on a new connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 2; i++) {
      statuses.push(
        await new Promise<number | string>((resolve) => {
          const body = Buffer.alloc(2 * MAX_BODY, 0x20);
          const req = request(
            listener.url,
            { method: "POST", agent, headers: { "content-type": "application/json", "content-length": String(body.length) } },
            (res) => {
              res.resume();
              res.on("end", () => resolve(`${res.statusCode} ${res.headers.connection}`));
            },
          );
          req.on("error", (error) => resolve(error.message));
          req.end(body);
        }),
      );
    }
    agent.destroy();
    expect(statuses).toEqual(["413 close", "413 close"]);
  });

  it("answers a chunked body that passes the cap with 413 before the connection closes", async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    const body = [...Array.from({ length: Math.ceil((2 * MAX_BODY) / chunk.length) }, () => framed), Buffer.from("0\r\n\r\n")];
    const out = await exchange(listener.port, { head: head(listener.port, "Mcp-Method: tools/list\r\nTransfer-Encoding: chunked"), body });
    expect(out.error).toBeUndefined();
    expect(out.status).toBe(413);
    expect((out.body?.error as { code: number }).code).toBe(-32600);
  });

  it("refuses an Expect: 100-continue body over the cap before the client sends it", async () => {
    const out = await exchange(listener.port, {
      head: head(listener.port, `Mcp-Method: tools/list\r\nExpect: 100-continue\r\nContent-Length: ${2 * MAX_BODY}`),
      end: true,
    });
    expect(out.received).not.toContain("100 Continue");
    expect(out.status).toBe(413);
  });

  it("answers an id with a fraction with -32600 and no id (the SDK would echo 1.5, which MCP does not allow)", async () => {
    const response = await fetch(listener.url, {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1.5, method: "tools/list", params: { _meta: meta() } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid Request: the id must be a string or an integer" },
    });
  });

  it("answers a message that is not JSON-RPC with -32600 and the id it carries, exactly", async () => {
    const response = await fetch(listener.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
      },
      body: '{"jsonrpc":"2.0","id":77,"method":5}',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(
      '{"jsonrpc":"2.0","id":77,"error":{"code":-32600,"message":"Invalid Request: not a valid JSON-RPC 2.0 message"}}',
    );
  });

  it("checks the structural limits on the raw body before parsing it, echoing the id", async () => {
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":${JSON.stringify(meta())},"name":"whoami","arguments":${"[".repeat(100)}${"]".repeat(100)}}}`;
    const response = await fetch(listener.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "whoami",
      },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "Request nested deeper than 64 levels (limit maxDepth)", data: { limit: "maxDepth", maximum: 64 } },
    });
  });
});

describe("HTTP listener timeouts and connection cap", () => {
  let app: McpApp;
  afterEach(() => app.close());

  it("ends a stalled body with 408 after requestTimeoutMs", async () => {
    app = createFeatureApp();
    const listener = await app.listen({ port: 0, requestTimeoutMs: 300 });
    const out = await exchange(listener.port, {
      head: head(listener.port, `Mcp-Method: tools/list\r\nContent-Length: ${MAX_BODY - 1}`),
      body: [Buffer.alloc(20, 0x20)],
      end: false,
    });
    expect(out.status).toBe(408);
  });

  it("checks its timeout and cap options", async () => {
    app = createFeatureApp();
    await expect(app.listen({ requestTimeoutMs: 0 })).rejects.toThrow("listen: requestTimeoutMs must be a positive integer, got 0");
    await expect(app.listen({ requestTimeoutMs: 1000, headersTimeoutMs: 2000 })).rejects.toThrow(
      "headersTimeoutMs must not exceed requestTimeoutMs",
    );
    await expect(app.listen({ maxConnections: 1.5 })).rejects.toThrow(RangeError);
  });

  it("answers every connection over maxConnections 503 with Retry-After, never a reset, and keeps serving the others", async () => {
    app = createFeatureApp();
    const cap = 4;
    const listener = await app.listen({ port: 0, maxConnections: cap, keepAliveTimeoutMs: 60_000 });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
    const request = head(listener.port, "Mcp-Method: tools/list");
    // `cap` keep-alive connections, each served once and held open.
    const held = await Promise.all(Array.from({ length: cap }, () => keepAlive(listener.port)));
    for (const connection of held) expect((await connection.send(request, body)).status).toBe(200);
    const extra = await Promise.all(
      Array.from({ length: 20 }, () =>
        exchange(listener.port, { head: `${request}\r\nContent-Length: ${body.length}`, body: [Buffer.from(body)] }),
      ),
    );
    for (const refused of extra) {
      expect(refused.error).toBeUndefined();
      expect(refused.received).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(refused.received).toMatch(/\r\nRetry-After: 1\r\n/i);
      expect(refused.received).toMatch(/\r\nConnection: close\r\n/i);
      expect(refused.body).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: expect.stringContaining("connection limit (maxConnections)") },
      });
    }
    // The held connections still work, and one freed makes room for a new one.
    expect((await held[0]!.send(request, body)).status).toBe(200);
    held[1]!.destroy();
    await held[1]!.closed;
    const served = await eventuallyServed(listener.port, request, body);
    expect(served.status).toBe(200);
    for (const connection of held) connection.destroy();
  });
});

/**
 * What one connection that keeps its side open reads: resolved once the answer is whole, or with
 * what came when the server closed it (or after 5 s); the socket is left open until `sockets` end.
 */
function heldOpen(port: number, sockets: Socket[]): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    // allowHalfOpen: the server's FIN does not make this side end too (as a default socket would).
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    sockets.push(socket);
    const done = () => (clearTimeout(timer), resolve(received));
    const timer = setTimeout(done, 5_000);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      if (/\r\n\r\n\{.*\}$/s.test(received)) done();
    });
    socket.on("error", done).on("end", done).on("close", done);
  });
}

describe("a burst over maxConnections", () => {
  let app: McpApp | undefined;
  afterEach(() => app?.close());

  it("holds up to four times the cap of refusals at once, answering each once its request is read, and cuts a flood's extra connections", async () => {
    app = createFeatureApp();
    const cap = 2;
    const listener = await app.listen({ port: 0, maxConnections: cap, keepAliveTimeoutMs: 60_000 });
    const held = await Promise.all(Array.from({ length: cap }, () => keepAlive(listener.port)));
    const request = head(listener.port, "Mcp-Method: tools/list");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta() } });
    for (const connection of held) expect((await connection.send(request, body)).status).toBe(200);
    // A burst of connections over the cap that send nothing yet: each is held, unanswered, while
    // the refusals in hand are within four times the cap; the rest are cut at once.
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 4 * cap + 3; i++) answers.push(heldOpen(listener.port, sockets));
    const ended = new Set<number>();
    answers.forEach((answer, i) => void answer.then(() => ended.add(i)));
    await eventually(() => (ended.size === 3 ? true : undefined));
    // Each refused connection's request is read, then answered.
    sockets.forEach((socket, i) => {
      if (!ended.has(i)) socket.write(`${request}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    const received = await Promise.all(answers);
    for (const socket of sockets) socket.destroy();
    const refused = received.filter((text) => text.startsWith("HTTP/1.1 503 Service Unavailable\r\n"));
    expect(refused).toHaveLength(4 * cap);
    for (const text of refused) expect(text).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(received.filter((text) => text === "")).toHaveLength(3);
    for (const connection of held) connection.destroy();
  });
});

/** Polls `check` until it returns something (at most 5 s). */
async function eventually<T>(check: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("gave up waiting");
}

/** A new connection's answer once the server has seen a freed one close (its close event may lag the client's). */
async function eventuallyServed(port: number, request: string, body: string) {
  for (;;) {
    const outcome = await exchange(port, { head: `${request}\r\nContent-Length: ${body.length}`, body: [Buffer.from(body)] });
    if (outcome.status !== 503) return outcome;
  }
}

describe("a mounted httpHandler() applies the same limits", () => {
  let app: McpApp;
  beforeAll(() => {
    app = createFeatureApp({ limits: { maxBodyBytes: 2000 } });
  });
  afterAll(() => app.close());

  function post(body: string, headers: Record<string, string> = {}): Request {
    return new Request("http://localhost/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list", ...headers },
      body,
    });
  }

  it("answers a body it reads over maxBodyBytes with 413", async () => {
    const response = await app.httpHandler().fetch(post(" ".repeat(3000)));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("answers a body over a structural limit with 400 and -32602, echoing the id", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "x",
      method: "tools/list",
      params: { _meta: meta(), deep: JSON.parse(`${"[".repeat(80)}${"]".repeat(80)}`) },
    });
    const response = await app.httpHandler().fetch(post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: "x", error: { code: -32602, data: { limit: "maxDepth" } } });
  });

  it("answers a message that is not JSON-RPC with -32600 and its id, read or handed over", async () => {
    const expected = { jsonrpc: "2.0", id: 77, error: { code: -32600, message: "Invalid Request: not a valid JSON-RPC 2.0 message" } };
    const read = await app.httpHandler().fetch(post('{"jsonrpc":"2.0","id":77,"method":5}'));
    expect([read.status, await read.json()]).toEqual([400, expected]);
    const handed = await app.httpHandler().fetch(post(""), { parsedBody: { jsonrpc: "2.0", id: 77, method: 5 } });
    expect([handed.status, await handed.json()]).toEqual([400, expected]);
  });

  it("leaves a batch array to the SDK, which serves 2025-era batches", async () => {
    const body = JSON.stringify([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      },
    ]);
    const response = await app.httpHandler().fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body,
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"protocolVersion":"2025-03-26"');
  });

  it("checks a parsedBody its host hands it", async () => {
    const parsedBody = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: { ...meta(), ...Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])) } },
    };
    const response = await app.httpHandler().fetch(post(""), { parsedBody });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32602, data: { limit: "maxObjectKeys", maximum: 1000 } } });
  });
});
