// Pins the graceful close of one served connection (app.serve(transport), as stdio is served;
// here over the SDK's in-memory pair), and app.close() closing it the same way:
// - a call in flight when close() begins is answered (its result) before the transport closes;
// - a new request during the drain is answered -32000 "shutting down" with its id, not dropped;
// - a call that never finishes holds the close only until drainTimeoutMs, and the logger gets one
//   "connection closed" line with the counts;
// - a connection whose client already went away closes at once.
import "reflect-metadata";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { McpApp } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { envelope } from "../support/raw-session";
import { Slow, control, started } from "./fixtures/slow-tools";

interface Opened {
  app: McpApp;
  logger: MemoryLogger;
  client: InMemoryTransport;
  served: ReturnType<McpApp["serve"]>;
  answer(id: number): Promise<JSONRPCMessage & { result?: Record<string, unknown>; error?: Record<string, unknown> }>;
  call(id: number, name: string): Promise<void>;
}

async function open(): Promise<Opened> {
  const logger = new MemoryLogger();
  const app = McpApp.create({ components: [Slow], state: { secret: "connection-shutdown-secret".padEnd(40, "x") }, logger });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const served = app.serve(serverSide);
  const received = new Map<unknown, JSONRPCMessage>();
  const waiting = new Map<unknown, (message: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    received.set(id, message);
    waiting.get(id)?.(message);
  };
  await client.start();
  return {
    app,
    logger,
    client,
    served,
    answer: (id) => new Promise((resolve) => (received.has(id) ? resolve(received.get(id) as never) : waiting.set(id, resolve as never))),
    call: (id, name) =>
      client.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: envelope() } } as JSONRPCMessage),
  };
}

describe("closing a served connection", () => {
  it("answers the call in flight and refuses a new request with its id before the transport closes", async () => {
    const { app, served, answer, call } = await open();
    let release!: () => void;
    control.release = new Promise((resolve) => (release = resolve));
    const running = started();
    await call(1, "slow");
    await running;
    const closing = served.close();
    await call(2, "ping");
    expect(await answer(2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32000, message: "Service unavailable: the server is shutting down; send the request again once it is back" },
    });
    release();
    expect((await answer(1)).result).toMatchObject({ content: [{ type: "text", text: "slow answer" }] });
    await closing;
    await app.close();
  });

  it("waits for a call that never finishes only until drainTimeoutMs, through app.close()", async () => {
    const { app, logger, call } = await open();
    const running = started();
    await call(3, "never");
    await running;
    await app.close({ drainTimeoutMs: 50 });
    expect(logger.entries.find((e) => e.message === "connection closed")?.fields).toEqual({
      inFlight: 1,
      unfinished: 1,
      drainTimeoutMs: 50,
    });
  });

  it("closes at once when the client already went away", async () => {
    const { app, client, call } = await open();
    const running = started();
    await call(4, "never");
    await running;
    await client.close();
    // A deadline far past the test's own timeout: nothing can be answered, so nothing is waited for.
    await app.close({ drainTimeoutMs: 600_000 });
  });
});
