// Pins the sessionful 2025-11-25 leg of every HTTP entry, driven by the official 2025-era client
// (@modelcontextprotocol/sdk 1.32.2, StreamableHTTPClientTransport, elicitation declared), over
// listen() and over an httpHandler() mounted in a plain node server:
// - initialize issues an Mcp-Session-Id (a sealed rt3 token); every later request carries it
// - the preferences flows complete through real elicitation/create requests on the SSE stream:
//   two dependent questions (the second's message and choices follow the first answer), the same
//   questions from the resource and the prompt, URL consent accepted, declined and cancelled
// - a declined first question ends the call without asking the second
// - a hand-written sampling round (sampling/createMessage) and a roots round (roots/list) complete
// - a form-only client is refused with -32021 naming elicitation.url and what it did declare
// - logging/setLevel filters the log notifications of a call; progress reaches onprogress
// - resources/subscribe then notifications/resources/updated, and tools/list_changed, on the GET stream
// - DELETE ends the session: its id then answers 404
// - every server message validates against the official 2025-11-25 schema, in that shape (no
//   resultType, ttlMs or cacheScope; test/support/wire-tap.ts)
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ElicitRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpApp } from "../../src/index";
import { CONSENT_MESSAGE, PREVIEW_URL } from "../../sample/preferences/preview-theme-tool";
import { createSessionApp, NOTE_URI } from "./fixtures/session-tools";
import { WireTap } from "../support/wire-tap";

type Answer = (params: ElicitRequest["params"]) => { action: "accept" | "decline" | "cancel"; content?: Record<string, string> };

/** A plain node server that hands each request to `app.httpHandler()` and streams the answer back. */
async function mount(app: McpApp): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = app.httpHandler();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = req.method === "POST" ? (Readable.toWeb(req) as ReadableStream) : undefined;
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body,
      duplex: "half",
      signal: controller.signal,
    } as RequestInit);
    const response = await handler.fetch(request, {
      authInfo: { token: "", clientId: "mount", scopes: [], extra: { principal: "mounted" } },
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    Readable.fromWeb(response.body as never).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  asked: ElicitRequest["params"][];
}

/** Every connection's tap: what the server sent each, checked against the negotiated revision's schema. */
const taps: WireTap[] = [];
afterEach(() => expect(taps.splice(0).flatMap((tap) => tap.violations)).toEqual([]));

async function connect(url: string, capabilities: Record<string, object>, answer: Answer): Promise<Connected> {
  const client = new Client({ name: "vscode-like", version: "1.0.0" }, { capabilities });
  const asked: ElicitRequest["params"][] = [];
  if (capabilities.elicitation)
    client.setRequestHandler(ElicitRequestSchema, async (request) => (asked.push(request.params), answer(request.params)));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const tap = new WireTap(transport as never);
  taps.push(tap);
  await client.connect(tap as never);
  return { client, transport, asked };
}

const COLOUR: Record<string, string> = { color: "green" };
const STYLE: Record<string, string> = { style: "mint" };
const pick: Answer = (params) => ({ action: "accept", content: params.message === "Which colour do you prefer?" ? COLOUR : STYLE });

describe.each([
  ["listen()", "listen"],
  ["a mounted httpHandler()", "mount"],
] as const)("a 2025-11-25 client over %s", (_name, entry) => {
  let app: McpApp;
  let url: string;
  let stop: () => Promise<void>;
  const open: Connected[] = [];
  const connectHere = async (capabilities: Record<string, object>, answer: Answer = pick) => {
    const c = await connect(url, capabilities, answer);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    app = createSessionApp();
    if (entry === "listen") {
      const listener = await app.listen();
      url = listener.url;
      stop = () => listener.close();
    } else {
      const mounted = await mount(app);
      url = mounted.url;
      stop = mounted.close;
    }
  });
  afterAll(async () => {
    for (const c of open) await c.client.close().catch(() => undefined);
    await stop();
    await app.close();
  });

  it("gets a sealed session id and completes two dependent questions through elicitation/create", async () => {
    const c = await connectHere({ elicitation: { form: {}, url: {} } });
    expect(c.transport.sessionId).toMatch(/^rt3\./);
    const result = await c.client.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
    expect(result.isError).toBeFalsy();
    expect(c.asked.map((p) => p.message)).toEqual(["Which colour do you prefer?", "Which green style?"]);
    const style = c.asked[1] as unknown as { requestedSchema: { properties: { style: { enum: string[] } } } };
    expect(style.requestedSchema.properties.style.enum).toEqual(["forest", "mint", "olive"]);
  });

  it("asks the same questions from the resource and the prompt", async () => {
    const c = await connectHere({ elicitation: { form: {} } });
    const read = await c.client.readResource({ uri: "preferences://work/summary" });
    expect((read.contents[0] as { text: string }).text).toContain("green / mint");
    const prompt = await c.client.getPrompt({ name: "preferences_prompt" });
    expect(JSON.stringify(prompt.messages)).toContain("green");
    expect(c.asked.map((p) => p.message)).toEqual([
      "Which colour do you prefer?",
      "Which green style?",
      "Which colour do you prefer?",
      "Which green style?",
    ]);
  });

  it.each(["accept", "decline", "cancel"] as const)("records URL consent answered %s", async (action) => {
    const c = await connectHere({ elicitation: { form: {}, url: {} } }, () => ({ action }));
    const result = await c.client.callTool({ name: "preview_theme", arguments: {} });
    expect(result.structuredContent).toEqual({ consent: action, verified: false });
    expect(c.asked).toHaveLength(1);
    expect(c.asked[0]).toMatchObject({ mode: "url", url: PREVIEW_URL, message: CONSENT_MESSAGE, elicitationId: expect.any(String) });
  });

  it("ends the call when the first question is declined, without asking the second", async () => {
    const c = await connectHere({ elicitation: { form: {} } }, () => ({ action: "decline" }));
    const result = await c.client.callTool({ name: "choose_preferences", arguments: {} });
    expect(result.isError).toBe(true);
    expect(c.asked).toHaveLength(1);
  });

  it("completes a sampling round and a roots round", async () => {
    const c = await connectHere({ sampling: {}, roots: {} });
    c.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      expect(request.params.messages[0]!.content).toEqual({ type: "text", text: "Name a colour" });
      return { role: "assistant", content: { type: "text", text: "teal" }, model: "test-model" };
    });
    c.client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    const sampled = await c.client.callTool({ name: "ask_model", arguments: {} });
    expect(sampled.content).toEqual([{ type: "text", text: "The model said teal (test-model)" }]);
    const roots = await c.client.callTool({ name: "list_roots", arguments: {} });
    expect(roots.content).toEqual([{ type: "text", text: "file:///work" }]);
  });

  it("refuses a form-only client URL consent with -32021 naming elicitation.url and what it declared", async () => {
    const c = await connectHere({ elicitation: { form: {} } });
    const error = await c.client.callTool({ name: "preview_theme", arguments: {} }).then(
      () => undefined,
      (e: { code: number; message: string; data?: unknown }) => e,
    );
    expect(error?.code).toBe(-32021);
    expect(error?.message).toContain(
      "Missing required client capability: elicitation.url. This client did not declare it at initialize (it declared elicitation.form)",
    );
    expect(error?.message).not.toContain("without a session");
    expect(c.asked).toEqual([]);
  });

  it("filters log notifications by logging/setLevel and reports progress", async () => {
    const c = await connectHere({});
    const logged: string[] = [];
    c.client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n) => void logged.push(`${n.params.level}:${String(n.params.data)}`),
    );
    await c.client.setLoggingLevel("info");
    await c.client.callTool({ name: "log_three", arguments: {} });
    expect(logged).toEqual(["info:info line", "warning:warning line"]);
    const progress: string[] = [];
    await c.client.callTool({ name: "count_two", arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(`${p.progress}/${p.total}:${p.message}`),
    });
    expect(progress).toEqual(["1/2:one", "2/2:two"]);
  });

  it("sends resources/updated to a subscriber and tools/list_changed on the GET stream", async () => {
    const c = await connectHere({});
    const heard: string[] = [];
    const both = new Promise<void>((resolve) => {
      const hear = (what: string) => {
        heard.push(what);
        if (heard.length === 2) resolve();
      };
      c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => hear(`updated ${n.params.uri}`));
      c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => hear("tools changed"));
    });
    expect(c.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await c.client.subscribeResource({ uri: NOTE_URI });
    await c.client.callTool({ name: "touch", arguments: {} });
    await both;
    expect(heard.sort()).toEqual(["tools changed", `updated ${NOTE_URI}`]);
  });

  it("ends a session on DELETE; its id then answers 404", async () => {
    const c = await connectHere({});
    const id = c.transport.sessionId!;
    await c.transport.terminateSession();
    const after = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": id },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });
});
