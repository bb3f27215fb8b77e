// Pins how a client that goes away reaches a handler over the HTTP listener, with the fast lane on
// and off (the lane makes the request's AbortController only when something reads the signal):
// - a client that closes its connection while a tool runs aborts the signal the tool is holding;
// - a tool that first reads its signal after the client went away finds it already aborted;
// - the signal of a request whose response was written never aborts, even when the client then
//   closes the connection.
import { connect, type Socket } from "node:net";
import "reflect-metadata";
import { Ctx, McpApp, Tool, type HttpListener, type RequestContext } from "../../src/index";
import { meta } from "../support/raw-http";

/** What the tools saw, per test. */
const seen: { signal?: AbortSignal; started?: () => void; proceed?: Promise<void> } = {};

class Waiting {
  @Tool({ description: "Holds its signal and waits for it to abort" })
  wait_for_abort(@Ctx() ctx: RequestContext) {
    seen.signal = ctx.signal;
    seen.started?.();
    return new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("aborted")));
  }

  @Tool({ description: "Reads its signal only when the test lets it" })
  async read_late(@Ctx() ctx: RequestContext) {
    seen.started?.();
    await seen.proceed;
    seen.signal = ctx.signal;
    return "late";
  }

  @Tool({ description: "Answers at once" })
  ping() {
    return "pong";
  }

  @Tool({ description: "Answers at once and keeps its signal" })
  at_once(@Ctx() ctx: RequestContext) {
    seen.signal = ctx.signal;
    return "done";
  }
}

function post(port: number, name: string): { socket: Socket; response: Promise<string> } {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, _meta: meta() } });
  const socket = connect(port, "127.0.0.1");
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ${name}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const response = new Promise<string>((resolve) => {
    socket.on("data", () => text.includes("\r\n\r\n") && text.endsWith("}") && resolve(text));
    socket.on("close", () => resolve(text));
  });
  return { socket, response };
}

/** One whole exchange on a new connection: the server has handled what reached it before. */
async function settle(port: number): Promise<void> {
  const { socket, response } = post(port, "ping");
  expect(await response).toContain('"text":"pong"');
  socket.destroy();
}

function started(): Promise<void> {
  return new Promise((resolve) => (seen.started = resolve));
}

function aborted(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
}

describe.each([
  ["on", true],
  ["off", false],
])("HTTP client that goes away, fast lane %s", (_label, fastLane) => {
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    app = McpApp.create({ components: [Waiting], state: { secret: "cancellation-test-secret".padEnd(40, "x") } });
    listener = await app.listen({ port: 0, fastLane });
  });
  afterAll(async () => {
    await listener.close();
    await app.close();
  });
  beforeEach(() => {
    delete seen.signal;
    delete seen.started;
    delete seen.proceed;
  });

  it("aborts the signal a running tool holds when the client closes the connection", async () => {
    const running = started();
    const { socket } = post(listener.port, "wait_for_abort");
    await running;
    expect(seen.signal?.aborted).toBe(false);
    socket.destroy();
    await aborted(seen.signal!);
    expect(seen.signal!.aborted).toBe(true);
  });

  it("gives an already aborted signal to a tool that first reads it after the client went away", async () => {
    let proceed!: () => void;
    seen.proceed = new Promise<void>((resolve) => (proceed = resolve));
    const running = started();
    const { socket } = post(listener.port, "read_late");
    await running;
    const closed = new Promise((resolve) => socket.on("close", resolve));
    socket.destroy();
    await closed;
    // Let the server see the close before the tool reads its signal.
    await settle(listener.port);
    proceed();
    await new Promise<void>((resolve) => {
      const poll = () => (seen.signal !== undefined ? resolve() : setImmediate(poll));
      poll();
    });
    await aborted(seen.signal!);
    expect(seen.signal!.aborted).toBe(true);
  });

  it("never aborts the signal of a request it answered, even when the client then disconnects", async () => {
    const { socket, response } = post(listener.port, "at_once");
    const text = await response;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toContain('"text":"done"');
    const closed = new Promise((resolve) => socket.on("close", resolve));
    socket.destroy();
    await closed;
    await settle(listener.port);
    expect(seen.signal?.aborted).toBe(false);
  });
});
