// Pins what a 2025-11-25 session holds and for how long, and that no instance is special:
// - two app instances sharing the key ring and a bus, behind a strict round-robin (the client's
//   fetch alternates between them): the preferences flow completes, and an answer POSTed to the
//   instance whose round does not wait for it reaches the other one over the bus; while the bus
//   refuses to carry it, that POST is answered 503 with Retry-After (never a 202 for an answer lost)
// - a session belongs to the principal that opened it: another principal gets the very 404 an
//   unknown id gets
// - a stream cut while a question is pending is resumed with GET and Last-Event-ID: the resumed
//   stream names the position it resumes from (with retry), replays the question, which is
//   answered, and the call completes on the new stream
// - answerTimeoutMs: an unanswered question ends the call with an error naming the wait, and
//   nothing stays held (the next call of the same session is asked at once)
// - maxPendingRequests: a round asking more at once fails, naming the option
// - maxSessionsPerPrincipal ends the principal's least recently used session (its id then 404s);
//   maxSessions answers a further initialize 503 with Retry-After; idleTimeoutMs ends an unused session
// - pollAfterMs (SEP-1699): a call's stream still open is closed by the server; the official client
//   reconnects with Last-Event-ID and the flow completes
// - closing the listener ends the sessions' GET streams at once instead of waiting out the drain
// - a tool that runs only as a task, called by a 2025 client, says it needs a 2026-07-28 client
import "reflect-metadata";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpApp, tasks, Tool, type HttpListener, type McpAppOptions } from "../../src/index";
import { MemoryMessageBus, MemoryTaskStore, type MessageBus } from "../../src/stores/index";
import { createSessionApp } from "./fixtures/session-tools";

const PREFERENCES = (params: { message: string }) => ({
  action: "accept" as const,
  content: params.message === "Which colour do you prefer?" ? { color: "blue" } : { style: "navy" },
});
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "raw", version: "1" } },
};

async function client(url: string, fetchVia?: typeof fetch, capabilities: Record<string, object> = { elicitation: { form: {} } }) {
  const c = new Client({ name: "copilot-like", version: "1.0.0" }, { capabilities });
  c.setRequestHandler(ElicitRequestSchema, async (request) => PREFERENCES(request.params as { message: string }));
  const transport = new StreamableHTTPClientTransport(new URL(url), fetchVia ? { fetch: fetchVia } : undefined);
  await c.connect(transport);
  return { client: c, transport };
}

/** Posts one JSON-RPC message in a session (or none) and returns the raw response. */
function post(url: string, body: unknown, session?: string, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { ...HEADERS, "mcp-protocol-version": "2025-11-25", ...extra };
  if (session !== undefined) headers["mcp-session-id"] = session;
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events from a response body, one at a time. */
function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async function (): Promise<SseEvent> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) event.id = line.slice(4);
          else if (line.startsWith("retry: ")) event.retry = Number(line.slice(7));
          else if (line.startsWith("data: ")) event.data += line.slice(6);
        }
        if (block.startsWith(":")) continue; // keep-alive comment
        return event;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended; left: ${buffer}`);
      buffer += value;
    }
  };
  return Object.assign(next, { cancel: () => reader.cancel() });
}

async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const init = await post(url, INITIALIZE, undefined, headers);
  const id = init.headers.get("mcp-session-id");
  await init.text();
  if (id === null) throw new Error(`initialize answered ${init.status} without a session id`);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, id, headers);
  await initialized.text();
  return id;
}

describe("2025 sessions", () => {
  const apps: McpApp[] = [];
  const listeners: HttpListener[] = [];
  const start = async (overrides: Partial<McpAppOptions> = {}, listen: Parameters<McpApp["listen"]>[0] = {}) => {
    const app = createSessionApp(overrides);
    apps.push(app);
    const listener = await app.listen(listen);
    listeners.push(listener);
    return listener;
  };
  afterEach(async () => {
    for (const listener of listeners.splice(0)) await listener.close({ drainTimeoutMs: 100 });
    for (const app of apps.splice(0)) await app.close();
  });

  it("serves one session from two instances behind strict round-robin, answers crossing over the bus", async () => {
    const published: string[] = [];
    const memory = new MemoryMessageBus();
    const bus: MessageBus = {
      publish: (channel, message) => (published.push(channel), memory.publish(channel, message)),
      subscribe: (channel, handler) => memory.subscribe(channel, handler),
      get healthy() {
        return memory.healthy;
      },
      close: () => memory.close(),
    };
    const keys = [{ id: "shared", secret: "a key ring both instances share, 32+ bytes" }];
    const a = await start({ state: { keys }, bus });
    const b = await start({ state: { keys }, bus });
    const served: string[] = [];
    let turn = 0;
    const roundRobin = ((_url: string | URL, init?: RequestInit) => {
      const target = turn++ % 2 === 0 ? a : b;
      served.push(target === a ? "A" : "B");
      return fetch(target.url, init);
    }) as typeof fetch;
    const { client: c } = await client(a.url, roundRobin);
    const result = await c.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "blue", style: "navy" });
    expect(new Set(served)).toEqual(new Set(["A", "B"]));
    // The first answer went to the instance that did not ask: it travelled on the asking instance's channel.
    expect(published.filter((channel) => channel.startsWith("roundtrip-mcp/2025/answers/")).length).toBeGreaterThanOrEqual(1);
    await c.close();
    await memory.close();
  });

  it("answers 503 with Retry-After to an answer the bus cannot carry to the instance waiting for it", async () => {
    const memory = new MemoryMessageBus();
    const bus: MessageBus = {
      publish: (channel, message) =>
        channel.startsWith("roundtrip-mcp/2025/answers/") ? Promise.reject(new Error("bus down")) : memory.publish(channel, message),
      subscribe: (channel, handler) => memory.subscribe(channel, handler),
      get healthy() {
        return memory.healthy;
      },
      close: () => memory.close(),
    };
    const keys = [{ id: "shared", secret: "a key ring both instances share, 32+ bytes" }];
    const a = await start({ state: { keys }, bus, sessions: { answerTimeoutMs: 2_000 } });
    const b = await start({ state: { keys }, bus, sessions: { answerTimeoutMs: 2_000 } });
    const answerStatuses: { status: number; retryAfter: string | null }[] = [];
    let turn = 0;
    const roundRobin = (async (_url: string | URL, init?: RequestInit) => {
      const target = turn++ % 2 === 0 ? a : b;
      const response = await fetch(target.url, init);
      const body = typeof init?.body === "string" ? init.body : "";
      // A client's answer: a JSON-RPC response (no method).
      if (init?.method === "POST" && !body.includes('"method"') && body.includes('"result"'))
        answerStatuses.push({ status: response.status, retryAfter: response.headers.get("retry-after") });
      return response;
    }) as typeof fetch;
    const { client: c } = await client(a.url, roundRobin);
    // The round cannot get its answer: it ends when answerTimeoutMs runs out, one way or the other.
    await c.callTool({ name: "choose_preferences", arguments: {} }).catch(() => undefined);
    expect(answerStatuses).toContainEqual({ status: 503, retryAfter: "1" });
    await c.close().catch(() => undefined);
    await memory.close();
  });

  it("answers another principal's session id with the same 404 as an unknown one", async () => {
    const listener = await start({}, { authenticate: (req) => (req.headers["x-user"] as string | undefined) ?? null });
    const alice = await openSession(listener.url, { "x-user": "alice" });
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const own = await post(listener.url, list, alice, { "x-user": "alice" });
    expect(own.status).toBe(200);
    await own.text();
    const stolen = await post(listener.url, list, alice, { "x-user": "mallory" });
    const unknown = await post(listener.url, list, "rt3.nope.nope.nope", { "x-user": "mallory" });
    expect([stolen.status, await stolen.text()]).toEqual([unknown.status, await unknown.text()]);
    expect(stolen.status).toBe(404);
  });

  it("resumes a stream cut while a question is pending, with GET and Last-Event-ID", async () => {
    const listener = await start({ sessions: { retryMs: 250 } });
    const session = await openSession(listener.url);
    const cut = new AbortController();
    const call = await fetch(listener.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-protocol-version": "2025-11-25", "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "choose_preferences", arguments: {} } }),
      signal: cut.signal,
    });
    const first = sseReader(call);
    const priming = await first();
    expect(priming).toMatchObject({ id: expect.any(String), retry: 250, data: "" });
    const question = await first();
    expect(JSON.parse(question.data)).toMatchObject({ method: "elicitation/create", params: { message: "Which colour do you prefer?" } });
    cut.abort(); // the stream drops before the client answered

    // As a client does: reconnect after `retry`, again while the server still holds the dropped stream (409).
    const reconnect = () =>
      fetch(listener.url, {
        method: "GET",
        headers: {
          accept: "text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "mcp-session-id": session,
          "last-event-id": priming.id!,
        },
      });
    let resumed = await reconnect();
    for (let attempt = 0; attempt < 20 && resumed.status === 409; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, priming.retry));
      resumed = await reconnect();
    }
    expect(resumed.status).toBe(200);
    const next = sseReader(resumed);
    // First the position it resumes from, with `retry`: a client that loses this stream too resumes from there.
    expect(await next()).toEqual({ id: priming.id, retry: 250, data: "" });
    const replayed = await next();
    expect(replayed.id).toBe(question.id);
    const asked = JSON.parse(replayed.data) as { id: string };
    const answer = await post(
      listener.url,
      { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { color: "green" } } },
      session,
    );
    expect(answer.status).toBe(202);
    const style = JSON.parse((await next()).data) as { id: string; params: { message: string } };
    expect(style.params.message).toBe("Which green style?");
    await post(listener.url, { jsonrpc: "2.0", id: style.id, result: { action: "accept", content: { style: "mint" } } }, session);
    const done = JSON.parse((await next()).data) as { id: number; result: { structuredContent: unknown } };
    expect(done).toMatchObject({ id: 7, result: { structuredContent: { color: "green", style: "mint" } } });
    await next.cancel();
  });

  it("ends a round whose answer does not come within answerTimeoutMs, holding nothing", async () => {
    const listener = await start({ sessions: { answerTimeoutMs: 300, maxPendingRequests: 1 } });
    const c = new Client({ name: "slow", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    let silent = true;
    c.setRequestHandler(ElicitRequestSchema, (request) =>
      silent ? new Promise<never>(() => undefined) : Promise.resolve(PREFERENCES(request.params as { message: string })),
    );
    await c.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    const late = await c.callTool({ name: "choose_preferences", arguments: {} });
    expect(late.isError).toBe(true);
    expect(JSON.stringify(late.content)).toMatch(/timed out/i);
    expect(JSON.stringify(late.content)).toContain("sessions.answerTimeoutMs");
    silent = false;
    const next = await c.callTool({ name: "choose_preferences", arguments: {} });
    expect(next.structuredContent).toEqual({ color: "blue", style: "navy" });
    await c.close();
  });

  it("fails a round that would wait for more answers than maxPendingRequests", async () => {
    const listener = await start({ sessions: { maxPendingRequests: 1 } });
    const { client: c } = await client(listener.url);
    const result = await c.callTool({ name: "two_lines", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("sessions.maxPendingRequests");
    await c.close();
  });

  it("ends the least recently used session of a principal over maxSessionsPerPrincipal", async () => {
    const listener = await start({ sessions: { maxSessionsPerPrincipal: 1 } });
    const older = await openSession(listener.url);
    const newer = await openSession(listener.url);
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect((await post(listener.url, list, older)).status).toBe(404);
    const kept = await post(listener.url, list, newer);
    expect(kept.status).toBe(200);
    await kept.text();
  });

  it("answers an initialize over maxSessions with 503 and Retry-After", async () => {
    const listener = await start({ sessions: { maxSessions: 1 } }, { authenticate: (req) => (req.headers["x-user"] as string) ?? null });
    await openSession(listener.url, { "x-user": "alice" });
    const refused = await post(listener.url, INITIALIZE, undefined, { "x-user": "bob" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("sessions.maxSessions");
  });

  it("ends a session unused for idleTimeoutMs", async () => {
    const listener = await start({ sessions: { idleTimeoutMs: 1000 } });
    const session = await openSession(listener.url);
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    // No event tells when a sweep ran (one a second): wait past the bound and one sweep, then ask once.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await post(listener.url, list, session)).status).toBe(404);
  });

  it("closes a call's stream after pollAfterMs; the client resumes it with Last-Event-ID and completes", async () => {
    const listener = await start({ sessions: { pollAfterMs: 50, retryMs: 20 } });
    let resumedOnce!: () => void;
    const resumed = new Promise<void>((resolve) => (resumedOnce = resolve));
    const watching = ((url: string | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (init?.method === "GET" && headers.has("last-event-id")) resumedOnce();
      return fetch(url, init);
    }) as typeof fetch;
    const c = new Client({ name: "poller", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    // The first answer waits until the server closed the stream and the client reconnected.
    c.setRequestHandler(ElicitRequestSchema, async (request) => (await resumed, PREFERENCES(request.params as { message: string })));
    await c.connect(new StreamableHTTPClientTransport(new URL(listener.url), { fetch: watching }));
    const result = await c.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "blue", style: "navy" });
    await c.close();
  });

  it("ends the sessions' GET streams when the listener closes, without waiting out the drain", async () => {
    const listener = await start();
    let getOpen!: () => void;
    const opened = new Promise<void>((resolve) => (getOpen = resolve));
    const watching = ((url: string | URL, init?: RequestInit) =>
      fetch(url, init).then((response) => {
        if (init?.method === "GET" && response.status === 200) getOpen();
        return response;
      })) as typeof fetch;
    const { client: c } = await client(listener.url, watching);
    await opened;
    const started = Date.now();
    await listener.close({ drainTimeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(2_500);
    await c.close();
  });

  it("tells a 2025 client that a task-only tool needs a 2026-07-28 client with the tasks extension", async () => {
    class Jobs {
      @Tool({ description: "Only as a task", task: "required" })
      long_job() {
        return "done";
      }
    }
    const app = McpApp.create({ components: [Jobs], state: { ephemeral: true }, features: [tasks({ store: new MemoryTaskStore() })] });
    apps.push(app);
    const listener = await app.listen();
    listeners.push(listener);
    const { client: c } = await client(listener.url);
    const error = await c.callTool({ name: "long_job", arguments: {} }).then(
      () => undefined,
      (e: { code: number; message: string }) => e,
    );
    expect(error?.code).toBe(-32021);
    expect(error?.message).toContain(
      "a 2025-era client cannot receive one: call it from a 2026-07-28 client that declares the tasks extension",
    );
    await c.close();
  });
});
