// Pins the graceful close of the HTTP listener (listener.close() and app.close()), with the fast
// lane on and off, over a real listener on 127.0.0.1:
// - a tool call in flight when close() begins gets its whole answer (200, its result, with
//   Connection: close), and close() resolves only after it;
// - from the moment the drain begins a new connection is refused (a balancer's retry goes to
//   another instance at once) and an idle keep-alive connection is closed; a request already on
//   its way is served, with Connection: close (never refused before it is read, never lost);
// - a call that never finishes is ended by the drain deadline: 503 with Retry-After, its JSON-RPC
//   id echoed, -32603 and data.reason "shutdown"; its handler's signal aborts;
// - an open subscriptions/listen stream ends with its final result and does not hold the drain
//   to its deadline;
// - the app's logger gets one "HTTP listener closed" line with the counts;
// - drainTimeoutMs is checked: a negative or fractional one is a RangeError naming it.
import "reflect-metadata";
import { connect } from "node:net";
import { McpApp, type HttpListener } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { meta, rpc } from "../support/raw-http";
import { openListen } from "../support/listen-stream";
import { keepAlive } from "../support/raw-socket";
import { Slow, control, started } from "./fixtures/slow-tools";

function callHead(port: number, name: string): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ${name}`
  );
}

function callBody(id: number, name: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: meta() } });
}

/** Whether a connection to the port is refused. */
function refused(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(undefined)));
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code));
  });
}

/** A connection written to step by step; `closed` resolves with everything it received. */
function rawConnection(port: number) {
  const socket = connect(port, "127.0.0.1");
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  socket.on("error", () => undefined);
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(text)));
  return {
    write: (data: string) => new Promise<void>((resolve) => socket.write(data, () => resolve())),
    received: () => text,
    closed,
  };
}

const header = (received: string, name: string) => new RegExp(`\r\n${name}: ([^\r]*)`, "i").exec(received)?.[1];

describe.each([
  ["on", true],
  ["off", false],
])("HTTP listener close, fast lane %s", (_label, fastLane) => {
  let app: McpApp;
  let logger: MemoryLogger;
  let listener: HttpListener;

  beforeEach(async () => {
    logger = new MemoryLogger();
    app = McpApp.create({ components: [Slow], state: { secret: "shutdown-test-secret".padEnd(40, "x") }, logger, fastLane });
    listener = await app.listen({ port: 0, keepAliveTimeoutMs: 60_000 });
  });
  afterEach(() => app.close({ drainTimeoutMs: 0 }));

  it("answers the call in flight whole, refuses new connections at once, and serves a request already on its way", async () => {
    const port = listener.port;
    // A keep-alive connection opened before the close, idle when it begins.
    const kept = await keepAlive(port);
    expect((await kept.send(callHead(port, "ping"), callBody(1, "ping"))).status).toBe(200);
    // A request on its way when the close begins: its head begun, not finished.
    const midway = rawConnection(port);
    await midway.write(`${callHead(port, "ping")}\r\n`);
    let release!: () => void;
    control.release = new Promise((resolve) => (release = resolve));
    const running = started();
    const inFlight = rpc(listener.url, "tools/call", { name: "slow", arguments: {}, _meta: meta() }, { id: 7 });
    await running;

    let closedYet = false;
    const closing = listener.close().then(() => (closedYet = true));
    // The idle keep-alive connection is closed, and no new connection is accepted: a balancer's
    // retry is refused at once and goes to another instance.
    await kept.closed;
    expect(await refused(port)).toBe("ECONNREFUSED");
    // The request already on its way is served, and its connection closed after it.
    await midway.write(`Content-Length: ${callBody(2, "ping").length}\r\n\r\n${callBody(2, "ping")}`);
    const answered = await midway.closed;
    expect(answered).toMatch(/^HTTP\/1\.1 200 /);
    expect(header(answered, "connection")).toBe("close");
    expect(answered).toContain('"id":2');
    expect(closedYet).toBe(false);

    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("connection")).toBe("close");
    expect(answer.body).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "slow answer" }] } });
    await closing;
    expect(await refused(port)).toBe("ECONNREFUSED");
    const line = logger.entries.find((e) => e.message === "HTTP listener closed");
    expect(line?.fields).toMatchObject({ inFlight: 1, finished: 1, ended: 0, streams: 0, lateRequests: 1 });
  });

  it("ends a call that never finishes at the drain deadline with a 503 naming its id", async () => {
    const port = listener.port;
    const running = started();
    const kept = await keepAlive(port);
    const answer = kept.send(callHead(port, "never"), callBody(41, "never"));
    await running;
    await app.close({ drainTimeoutMs: 50 });
    const ended = await answer;
    expect(ended.error).toBeUndefined();
    expect(ended.status).toBe(503);
    expect(header(ended.received, "retry-after")).toBe("1");
    expect(ended.body).toEqual({
      jsonrpc: "2.0",
      id: 41,
      error: {
        code: -32603,
        message: "The server shut down before the request finished (drain deadline reached); it may or may not have taken effect",
        data: { reason: "shutdown" },
      },
    });
    expect(control.signal?.aborted).toBe(true);
    expect(logger.entries.find((e) => e.message === "HTTP listener closed")?.fields).toMatchObject({
      inFlight: 1,
      finished: 0,
      ended: 1,
      drainTimeoutMs: 50,
    });
  });

  it("ends an open listen stream with its final result without waiting for the deadline", async () => {
    const stream = await openListen(listener.url, "listen-1", { toolsListChanged: true });
    expect((await stream.next()).method).toBe("notifications/subscriptions/acknowledged");
    // A deadline far past the test's own timeout: the close must not wait for it.
    const closing = listener.close({ drainTimeoutMs: 600_000 });
    expect(await stream.next()).toMatchObject({ id: "listen-1", result: { resultType: "complete" } });
    await closing;
    expect(logger.entries.find((e) => e.message === "HTTP listener closed")?.fields).toMatchObject({ inFlight: 0, streams: 1, ended: 0 });
  });

  it("checks drainTimeoutMs", async () => {
    await expect(app.listen({ drainTimeoutMs: -1 })).rejects.toThrow(
      "listen: drainTimeoutMs must be an integer of 0 or more milliseconds, got -1",
    );
    await expect(listener.close({ drainTimeoutMs: 1.5 })).rejects.toThrow(
      "close: drainTimeoutMs must be an integer of 0 or more milliseconds, got 1.5",
    );
  });
});
