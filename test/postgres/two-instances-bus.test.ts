/*
 * Two app instances on one PostgreSQL, sharing a key ring and a PostgresMessageBus each (run by
 * `npm run test:postgres`), each listening on its own 127.0.0.1 port. Pins:
 * - a change announced on instance B (a tool calling ChangeNotifier.toolsChanged, and
 *   app.changes.promptsChanged) reaches a 2026 `subscriptions/listen` stream open on instance A;
 * - the same through a strict round-robin proxy: the listen request lands on A, the call that
 *   announces the change on B, and A's stream gets the notification;
 * - a 2025-era client (@modelcontextprotocol/sdk 1.32.2) with its GET stream open on A hears
 *   notifications/tools/list_changed announced on B;
 * - the database stopped: a change announced on A still reaches A's own stream at once and the
 *   failed relay is logged; once the database is back both buses are healthy again by themselves
 *   and a change announced on B reaches the stream on A again, with no re-subscription;
 * - two processes of the preferences sample (`npm start`'s entry) with one STATE_KEYS and MCP_BUS
 *   set to the database, behind a strict round-robin proxy: the 2025-era client completes the
 *   two dependent questions of choose_preferences, each of its answers POSTed to the instance
 *   that is not holding the round (the proxy's log shows it), and the result is the one asked for;
 * - the same with MCP_POLL_AFTER_MS: the call's stream is cut while the user thinks and resumed
 *   with Last-Event-ID, on the other process too, and the flow completes;
 * - kill -9 of the process running the call while its question waits for the user: the client's
 *   stream resumes on the survivor, which takes the call over once the killed one's heartbeat
 *   lapses (MCP_TAKEOVER_AFTER_MS), and the user's answer completes it there.
 */
import "reflect-metadata";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { injectable } from "tsyringe";
import { ChangeNotifier, type HttpListener, McpApp, Prompt, Tool } from "../../src/index";
import { PostgresMessageBus } from "../../src/stores/index";
import { MemoryLogger } from "../../src/testing/index";
import { type ListenStream, openListen } from "../support/listen-stream";
import { meta, rpc } from "../support/raw-http";
import { type RoundRobinProxy, roundRobinProxy } from "../support/round-robin-proxy";
import { type TaskServer, startServerProcess } from "../support/task-server";
import { PostgresCluster } from "./postgres-cluster";
import { freshSchema, postgresUrl, sql } from "./postgres-database";
import { eventually } from "./store-under-fault";

jest.setTimeout(60_000);

const SECRET = randomBytes(32);
const STATE_KEYS = `k1:${SECRET.toString("base64")}`;
const PREFERENCES_HTTP = path.resolve(__dirname, "../../dist/sample/preferences/main-http.js");

@injectable()
class Catalogue {
  constructor(private readonly changes: ChangeNotifier) {}

  @Tool({ description: "Turns the beta tools on" })
  enable_beta() {
    this.changes.toolsChanged();
    return "on";
  }

  @Prompt({ description: "A prompt" })
  hello() {
    return "hello";
  }
}

describe("change notifications across two app instances on one PostgreSQL", () => {
  const schema = freshSchema();
  const apps: McpApp[] = [];
  const buses: PostgresMessageBus[] = [];
  const listeners: HttpListener[] = [];
  const streams: ListenStream[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const bus = await PostgresMessageBus.open({ connectionString: postgresUrl(), schema });
      const app = McpApp.create({
        components: [Catalogue],
        state: { keys: [{ id: "k1", secret: SECRET }] },
        logger: new MemoryLogger(),
        bus,
      });
      buses.push(bus);
      apps.push(app);
      listeners.push(await app.listen({ host: "127.0.0.1", port: 0 }));
    }
    proxy = await roundRobinProxy(listeners.map((l) => new URL(l.url).origin));
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await proxy?.close();
    for (const app of apps) await app.close();
    for (const bus of buses) await bus.close();
    await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  async function listenOn(url: string, id: number, notifications: Record<string, unknown>): Promise<ListenStream> {
    const stream = await openListen(url, id, notifications);
    streams.push(stream);
    expect((await stream.next()).method).toBe("notifications/subscriptions/acknowledged");
    return stream;
  }

  it("brings a change announced on B to a subscriptions/listen stream on A", async () => {
    // beforeAll starts both instances, A and B.
    const [a, b] = listeners;
    const stream = await listenOn(a!.url, 7, { toolsListChanged: true, promptsListChanged: true });
    const called = await rpc(b!.url, "tools/call", { _meta: meta(), name: "enable_beta", arguments: {} });
    expect(called.body!.result).toMatchObject({ resultType: "complete" });
    expect(await stream.next()).toMatchObject({ method: "notifications/tools/list_changed" });
    apps[1]!.changes.promptsChanged();
    expect(await stream.next()).toMatchObject({ method: "notifications/prompts/list_changed" });
  });

  it("does the same through a strict round-robin proxy: listen on one instance, the change on the other", async () => {
    const url = `${proxy.url}/mcp`;
    const first = proxy.routed.length;
    const stream = await listenOn(url, 8, { toolsListChanged: true });
    await rpc(url, "tools/call", { _meta: meta(), name: "enable_beta", arguments: {} });
    expect(await stream.next()).toMatchObject({ method: "notifications/tools/list_changed" });
    const [listen, call] = proxy.routed.slice(first);
    expect([listen!.rpc, call!.rpc]).toEqual(["subscriptions/listen", "tools/call"]);
    expect(listen!.backend).not.toBe(call!.backend);
  });

  it("brings a change announced on B to a 2025 client's GET stream on A", async () => {
    let streamOpen!: () => void;
    const opened = new Promise<void>((resolve) => (streamOpen = resolve));
    // The client opens its GET stream on its own after initialize; its answer headers say it is open.
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && response.ok) streamOpen();
      return response;
    };
    const client = new Client({ name: "vscode-like", version: "1.0.0" }, { capabilities: {} });
    const heard = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    await client.connect(new StreamableHTTPClientTransport(new URL(listeners[0]!.url), { fetch: watching }));
    try {
      await opened;
      apps[1]!.changes.toolsChanged();
      await heard;
    } finally {
      await client.close();
    }
  });
});

describe("change notifications across two instances while the database goes away and comes back", () => {
  let cluster: PostgresCluster;
  const apps: McpApp[] = [];
  const buses: PostgresMessageBus[] = [];
  const logs: MemoryLogger[] = [];
  const listeners: HttpListener[] = [];
  let stream: ListenStream | undefined;

  beforeAll(async () => {
    cluster = await PostgresCluster.create();
    for (let i = 0; i < 2; i++) {
      const bus = await PostgresMessageBus.open({ connectionString: cluster.url, connectTimeoutMs: 1000, queryTimeoutMs: 2000 });
      const logger = new MemoryLogger();
      const app = McpApp.create({ components: [Catalogue], state: { keys: [{ id: "k1", secret: SECRET }] }, logger, bus });
      buses.push(bus);
      logs.push(logger);
      apps.push(app);
      listeners.push(await app.listen({ host: "127.0.0.1", port: 0 }));
    }
  });
  afterAll(async () => {
    await stream?.close();
    for (const app of apps) await app.close();
    for (const bus of buses) await bus.close();
    cluster?.destroy();
  });

  const announceOn = async (i: number) =>
    expect((await rpc(listeners[i]!.url, "tools/call", { _meta: meta(), name: "enable_beta", arguments: {} })).body!.result).toMatchObject({
      resultType: "complete",
    });

  it("keeps serving its own streams while the bus is down, and carries changes across again once it is back", async () => {
    stream = await openListen(listeners[0]!.url, 9, { toolsListChanged: true });
    expect((await stream.next()).method).toBe("notifications/subscriptions/acknowledged");

    cluster.stop("fast");
    await eventually("both buses unhealthy", async () => buses.every((b) => !b.healthy));
    await announceOn(0);
    expect(await stream.next()).toMatchObject({ method: "notifications/tools/list_changed" });
    await eventually("the failed relay logged", async () =>
      logs[0]!.entries.some((e) => e.message.startsWith("a change notification did not reach the other instances")),
    );

    cluster.start();
    await eventually("both buses healthy again", async () => buses.every((b) => b.healthy));
    await announceOn(1);
    expect(await stream.next()).toMatchObject({ method: "notifications/tools/list_changed" });
  });
});

describe("one 2025 session served by two preferences sample processes behind strict round-robin (MCP_BUS)", () => {
  const servers: TaskServer[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    const env = { PORT: "0", STATE_KEYS, MCP_BUS: postgresUrl() };
    servers.push(...(await Promise.all([startServerProcess(PREFERENCES_HTTP, env), startServerProcess(PREFERENCES_HTTP, env)])));
    proxy = await roundRobinProxy(servers.map((s) => new URL(s.url).origin));
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("completes choose_preferences with each answer landing on the instance not holding the round", async () => {
    const client = new Client({ name: "vscode-like", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const asked: string[] = [];
    let owner: number | undefined;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      owner ??= [...proxy.routed].reverse().find((r) => r.rpc === "tools/call")!.backend;
      // Strict round-robin decides where the answer goes: when its turn would bring it to the
      // instance holding the round, one throwaway request through the proxy takes that turn.
      if (proxy.next() === owner) expect((await fetch(`${proxy.url}/not-mcp`)).status).toBe(404);
      return {
        action: "accept",
        content: request.params.message === "Which colour do you prefer?" ? { color: "green" } : { style: "mint" },
      };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "choose_preferences", arguments: {} });
      expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
      expect(asked).toHaveLength(2);
      const answers = proxy.routed.filter((r) => r.rpc === "response");
      expect(answers).toHaveLength(2);
      expect(answers.map((r) => r.backend)).toEqual([1 - owner!, 1 - owner!]);
      // Both instances served this one session.
      expect(new Set(proxy.routed.filter((r) => r.rpc !== undefined).map((r) => r.backend))).toEqual(new Set([0, 1]));
    } finally {
      await client.close();
    }
  });
});

describe("2025 streams of two preferences sample processes resumed on either (MCP_BUS, MCP_POLL_AFTER_MS)", () => {
  let servers: TaskServer[] = [];
  let proxy: RoundRobinProxy;

  beforeEach(async () => {
    const env = {
      PORT: "0",
      STATE_KEYS,
      MCP_BUS: postgresUrl(),
      MCP_POLL_AFTER_MS: "300",
      MCP_RETRY_MS: "100",
      MCP_TAKEOVER_AFTER_MS: "1000",
    };
    servers = await Promise.all([startServerProcess(PREFERENCES_HTTP, env), startServerProcess(PREFERENCES_HTTP, env)]);
    proxy = await roundRobinProxy(servers.map((s) => new URL(s.url).origin));
  });
  afterEach(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });

  const answerOf = (message: string) => ({
    action: "accept" as const,
    content: message === "Which colour do you prefer?" ? { color: "green" } : { style: "mint" },
  });

  it("completes choose_preferences while its stream is cut and resumed, on the other process too", async () => {
    const client = new Client({ name: "vscode-like", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      // The user thinks for longer than MCP_POLL_AFTER_MS: the stream is cut and resumed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 800));
      return answerOf(request.params.message);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "choose_preferences", arguments: {} });
      expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
      const call = [...proxy.routed].reverse().find((r) => r.rpc === "tools/call")!;
      const resumed = proxy.routed.filter((r) => r.httpMethod === "GET").map((r) => r.backend);
      expect(resumed).toContain(1 - call.backend);
    } finally {
      await client.close();
    }
  });

  it("takes the call over on the survivor when the process running it is killed with a question pending", async () => {
    const client = new Client({ name: "vscode-like", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    let killed!: () => void;
    const afterKill = new Promise<void>((resolve) => (killed = resolve));
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (asked++ === 0) {
        const owner = [...proxy.routed].reverse().find((r) => r.rpc === "tools/call")!.backend;
        await servers[owner]!.stop("SIGKILL");
        killed();
      }
      return answerOf(request.params.message);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)));
    try {
      const result = await client.callTool({ name: "choose_preferences", arguments: {} });
      await afterKill;
      expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
      expect(asked).toBe(2);
    } finally {
      await client.close();
    }
  });
});
