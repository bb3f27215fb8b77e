// Pins that a 2025-11-25 session's streams resume on any instance (two app instances in one
// process on one MemoryMessageBus, which shares the session state as a PostgreSQL bus does,
// behind a strict round-robin; the official 2025-era client, @modelcontextprotocol/sdk 1.32.2):
// - with pollAfterMs the call's stream is cut while the user thinks; the resumption GET lands on
//   the instance that is not running the call, which replays what the client missed and carries
//   on (a resumed stream is not cut by polling again): the flow completes with the answers given
// - an answer that no round waits for (answered twice, or never asked) is refused 400 with
//   -32602, never acknowledged 202
// - the instance running a call that waits for an answer shuts down: the call is handed over,
//   the client resumes on the other instance, answers there, and the call completes there
// - a call that had asked nothing when its instance shut down cannot be carried on: the resumed
//   stream gets a JSON-RPC error for it at once, and resuming from that error's event id is 204
// - logging/setLevel and resources/subscribe taken by one instance apply on the other
import "reflect-metadata";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { McpApp, Tool, type HttpListener, type McpAppOptions } from "../../src/index";
import { MemoryMessageBus } from "../../src/stores/index";
import { MemoryLogger } from "../../src/testing/index";
import { createSessionApp, NOTE_URI } from "./fixtures/session-tools";

const KEYS = [{ id: "shared", secret: "a key ring both instances share, 32+ bytes" }];
const PICK = (params: { message: string }) => ({
  action: "accept" as const,
  content: params.message === "Which colour do you prefer?" ? { color: "blue" } : { style: "navy" },
});

class Slow {
  @Tool({ description: "Answers after a second, asking nothing" })
  async slow() {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return "done";
  }
}

interface Served {
  readonly instance: "A" | "B";
  readonly method: string;
  readonly resume: boolean;
  readonly body: string;
}

const RAW_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A 2025-11-25 session opened by a bare initialize POST (no client library): its session id. */
async function openRawSession(url: string, capabilities: Record<string, unknown>): Promise<string> {
  const init = await fetch(url, {
    method: "POST",
    headers: RAW_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await init.text();
  return init.headers.get("mcp-session-id")!;
}

describe("a 2025 session's streams resume on any instance", () => {
  let bus: MemoryMessageBus;
  const apps: McpApp[] = [];
  const listeners: HttpListener[] = [];
  const logs: MemoryLogger[] = [];
  const clients: Client[] = [];

  async function pair(options: Partial<McpAppOptions> = {}) {
    for (let i = 0; i < 2; i++) {
      const logger = new MemoryLogger();
      const app = createSessionApp({ state: { keys: KEYS }, bus, logger, ...options });
      apps.push(app);
      logs.push(logger);
      listeners.push(await app.listen());
    }
    const [a, b] = listeners.slice(-2) as [HttpListener, HttpListener];
    const served: Served[] = [];
    let turn = 0;
    // As a balancer does: a connection refused (the instance is gone) is tried on the next instance.
    const roundRobin = (async (_url: string | URL, init?: RequestInit) => {
      const first = turn++ % 2;
      for (const target of first === 0 ? [a, b] : [b, a]) {
        const headers = new Headers(init?.headers);
        try {
          const response = await fetch(target.url, init);
          served.push({
            instance: target === a ? "A" : "B",
            method: init?.method ?? "GET",
            resume: headers.has("last-event-id"),
            body: typeof init?.body === "string" ? init.body : "",
          });
          return response;
        } catch (error) {
          if (init?.signal?.aborted || target !== (first === 0 ? a : b)) throw error;
        }
      }
      throw new Error("unreachable");
    }) as typeof fetch;
    return { a, b, served, roundRobin, apps: apps.slice(-2) as [McpApp, McpApp] };
  }

  async function client(fetchVia: typeof fetch, answer: (params: { message: string }) => Promise<object> | object = PICK) {
    const c = new Client({ name: "copilot-like", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    c.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params as { message: string }) as never);
    await c.connect(new StreamableHTTPClientTransport(new URL("http://balancer.invalid/mcp"), { fetch: fetchVia }));
    clients.push(c);
    return c;
  }

  beforeEach(() => {
    bus = new MemoryMessageBus();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const listener of listeners.splice(0)) await listener.close({ drainTimeoutMs: 100 }).catch(() => undefined);
    for (const app of apps.splice(0)) await app.close();
    logs.splice(0);
    await bus.close();
  });

  it("completes a flow whose stream is cut while the user thinks, each resumption on the other instance", async () => {
    const { served, roundRobin } = await pair({ sessions: { pollAfterMs: 100, retryMs: 50 } });
    const c = await client(roundRobin, async (params) => (await new Promise((resolve) => setTimeout(resolve, 400)), PICK(params)));
    const result = await c.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "blue", style: "navy" });
    const call = served.findIndex((s) => s.body.includes('"tools/call"'));
    const resumes = served.slice(call).filter((s) => s.resume);
    expect(resumes.length).toBeGreaterThanOrEqual(1);
    // The call ran where it was POSTed; strict round-robin brought resumptions to the other instance too.
    expect(resumes.some((s) => s.instance !== served[call]!.instance)).toBe(true);
  });

  it("refuses 400 an answer that no round waits for", async () => {
    const { a } = await pair();
    const session = await openRawSession(a.url, { elicitation: { form: {} } });
    const stray = await fetch(a.url, {
      method: "POST",
      headers: { ...RAW_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "nobody~nothing~0.1.0", result: { action: "accept", content: {} } }),
    });
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as { error: { code: number } }).error.code).toBe(-32602);
  });

  it("hands a call waiting for an answer over when its instance shuts down; the client completes it on the other", async () => {
    const {
      a,
      b,
      served,
      roundRobin,
      apps: [appA, appB],
    } = await pair({ sessions: { retryMs: 50 } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const c = await client(roundRobin, async (params) => {
      if (asked++ === 0) await released;
      return PICK(params);
    });
    const call = c.callTool({ name: "choose_preferences", arguments: {} });
    await waitFor(() => asked === 1);
    const owner = served.filter((s) => s.body.includes('"tools/call"')).at(-1)!.instance;
    const [ownerApp, ownerListener] = owner === "A" ? [appA, a] : [appB, b];
    await ownerListener.close({ drainTimeoutMs: 50 });
    await ownerApp.close();
    // Every request now reaches the instance still up.
    served.length = 0;
    release();
    expect((await call).structuredContent).toEqual({ color: "blue", style: "navy" });
    const other = logs[owner === "A" ? 1 : 0]!;
    expect(other.entries.some((e) => e.message === "2025 sessions: took over a call whose instance is gone")).toBe(true);
  });

  it("tells the client at once when a call that asked nothing lost its instance, and ends that stream for good", async () => {
    const { a, b } = await pair({ components: [Slow], sessions: { retryMs: 50 } });
    const session = await openRawSession(a.url, {});
    const inSession = { ...RAW_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const call = await fetch(a.url, {
      method: "POST",
      headers: inSession,
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "slow", arguments: {} } }),
    });
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    const priming = /id: (.+)\n/.exec((await reader.read()).value!)![1]!;
    await reader.cancel();
    await apps[0]!.close();
    const resumed = await fetch(b.url, { headers: { ...inSession, accept: "text/event-stream", "last-event-id": priming } });
    expect(resumed.status).toBe(200);
    const text = await resumed.text();
    const ended = /id: (.+)\ndata: (.+)\n/.exec(text)!;
    expect(JSON.parse(ended[2]!)).toMatchObject({ id: 5, error: { code: -32603, data: { reason: "not-resumable" } } });
    const again = await fetch(b.url, { headers: { ...inSession, accept: "text/event-stream", "last-event-id": ended[1]! } });
    expect(again.status).toBe(204);
  });

  it("applies a log level and a subscription taken by one instance on the other", async () => {
    const { roundRobin } = await pair();
    const c = await client(roundRobin);
    const heard: string[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(String(n.params.data)));
    const updated = new Promise<void>((resolve) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, () => resolve()));
    await c.setLoggingLevel("warning");
    await c.subscribeResource({ uri: NOTE_URI });
    // Two calls: strict round-robin brings one to each instance.
    await c.callTool({ name: "log_three", arguments: {} });
    await c.callTool({ name: "log_three", arguments: {} });
    expect(heard).toEqual(["warning line", "warning line"]);
    await c.callTool({ name: "touch", arguments: {} });
    await updated;
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!done()) throw new Error("gave up waiting");
}
