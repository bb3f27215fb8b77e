// Replays, byte for byte where it matters, what real hosts sent the compiled preferences sample on
// stdio when they were driven through a tool call here (docs/hosts.md, "Driven here"), and pins the
// exact answers they depend on. Each session is a real child process (dist/sample/preferences).
// - Codex 0.171.0 at its default 2025-06-18 declares elicitation { form, url } at initialize: its
//   preview_theme call gets elicitation/create with exactly mode "url", message, url and a 22-character
//   elicitationId (and the SDK's _meta); its answer { action: "accept", content: {} } completes with
//   structuredContent { consent: "accept", verified: false }, no resultType. Before, the question went
//   without mode and elicitationId and Codex refused it ("data did not match any variant of untagged
//   enum ElicitRequestParamsWire"), so the call failed.
// - the same session's choose_preferences asks two forms without mode and completes.
// - Gemini CLI 0.61.0 at 2025-06-18 declares only roots: preview_theme is -32021 whose message says
//   URL questions need 2025-11-25 or later (it cannot declare elicitation.url at 2025-06-18; before,
//   the message told it to), choose_preferences -32021 naming elicitation; data.requiredCapabilities
//   as before.
// - every server message validates against the 2025-06-18 schema (a URL question, sent to a client
//   that declared elicitation.url, against 2025-11-25's ElicitRequest: test/support/legacy-wire-schema.ts).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";
import { validateLegacyServerMessage } from "../support/legacy-wire-schema";

const MAIN = path.resolve(__dirname, "../../dist/sample/preferences/main-stdio.js");

type Message = Record<string, unknown> & { id?: number | string; method?: string; params?: Record<string, unknown> };

/** One host session on a child process: sends lines, reads lines, validates what the server sent. */
class HostSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Message[] = [];
  private readonly waiting: ((m: Message) => void)[] = [];
  private readonly methods = new Map<number | string, string>();
  readonly violations: string[] = [];

  constructor(private readonly declared: Record<string, unknown>) {
    this.child = spawn(process.execPath, [MAIN], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.resume();
    let buffer = "";
    this.child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, at)) as Message;
        buffer = buffer.slice(at + 1);
        const answered = message.method === undefined && message.id !== undefined ? this.methods.get(message.id) : undefined;
        try {
          validateLegacyServerMessage(message, "2025-06-18", answered, this.declared);
        } catch (error) {
          this.violations.push((error as Error).message);
        }
        const waiter = this.waiting.shift();
        if (waiter) waiter(message);
        else this.lines.push(message);
      }
    });
  }

  send(message: Message): void {
    if (message.id !== undefined && message.method !== undefined) this.methods.set(message.id, message.method);
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  next(): Promise<Message> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((resolve) => this.child.once("exit", resolve));
  }
}

/** Codex 0.171.0's initialize, as its MCP client sent it (config.toml [mcp_servers], no feature flags). */
const CODEX_INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: { elicitation: { form: {}, url: {} } },
    clientInfo: { name: "codex-mcp-client", title: "Codex", version: "0.171.0" },
  },
};

/** Codex's tools/call: its turn metadata in _meta (abridged to the keys a server may read) and a progress token. */
const codexCall = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    _meta: { callId: `call_${id}`, threadId: "thread-1", sessionId: "thread-1", itemId: `fc_${id}`, progressToken: id },
    name,
    arguments: {},
  },
});

/** Gemini CLI 0.61.0's initialize and tools/call, as sent. */
const GEMINI_INITIALIZE = {
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: { roots: { listChanged: true } },
    clientInfo: { name: "gemini-cli-mcp-client", version: "0.61.0" },
  },
  jsonrpc: "2.0",
  id: 0,
};
const geminiCall = (id: number, name: string) => ({
  method: "tools/call",
  params: { name, arguments: {}, _meta: { progressToken: "ab9ea6c4-8038-42d2-8497-76f23da523d0" } },
  jsonrpc: "2.0",
  id,
});

async function open(initialize: Message): Promise<HostSession> {
  const session = new HostSession((initialize.params as { capabilities: Record<string, unknown> }).capabilities);
  session.send(initialize);
  expect(await session.next()).toMatchObject({ id: 0, result: { protocolVersion: "2025-06-18" } });
  session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return session;
}

describe("Codex 0.171.0 at its default revision (2025-06-18), replayed on stdio", () => {
  let codex: HostSession;
  beforeAll(async () => {
    codex = await open(CODEX_INITIALIZE);
  });
  afterAll(() => codex.close());

  it("is asked preview_theme's URL question whole, and its accept completes the call", async () => {
    codex.send(codexCall(2, "preview_theme"));
    const ask = await codex.next();
    expect(ask).toEqual({
      jsonrpc: "2.0",
      id: expect.anything(),
      method: "elicitation/create",
      params: {
        mode: "url",
        message: "Open the theme preview in your browser?",
        url: "http://localhost/preview?theme=current",
        elicitationId: expect.stringMatching(/^[\w-]{22}$/),
        _meta: expect.any(Object),
      },
    });
    codex.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: {} } });
    expect(await codex.next()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [{ type: "text", text: "Consent: accept. Preview not verified: nothing was fetched or opened." }],
        structuredContent: { consent: "accept", verified: false },
      },
    });
    expect(codex.violations).toEqual([]);
  });

  it("is asked choose_preferences' two forms without mode, and completes", async () => {
    codex.send(codexCall(3, "choose_preferences"));
    const colour = await codex.next();
    expect(colour).toMatchObject({ method: "elicitation/create", params: { message: "Which colour do you prefer?" } });
    expect(colour.params).not.toHaveProperty("mode");
    codex.send({ jsonrpc: "2.0", id: colour.id, result: { action: "accept", content: { color: "red" } } });
    const style = await codex.next();
    expect(style).toMatchObject({ method: "elicitation/create", params: { message: "Which red style?" } });
    expect(style.params).not.toHaveProperty("mode");
    codex.send({ jsonrpc: "2.0", id: style.id, result: { action: "accept", content: { style: "crimson" } } });
    expect(await codex.next()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        content: [{ type: "text", text: "Preferences chosen: red / crimson" }],
        structuredContent: { color: "red", style: "crimson" },
      },
    });
    expect(codex.violations).toEqual([]);
  });
});

describe("Gemini CLI 0.61.0 (2025-06-18, no elicitation), replayed on stdio", () => {
  let gemini: HostSession;
  beforeAll(async () => {
    gemini = await open(GEMINI_INITIALIZE);
  });
  afterAll(() => gemini.close());

  it("is told URL questions need 2025-11-25 or later, and what a form question needs", async () => {
    gemini.send(geminiCall(4, "preview_theme"));
    expect(await gemini.next()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32021,
        message:
          "Missing required client capability: elicitation.url. This client did not declare it at initialize (it declared " +
          "roots.listChanged), and the revision it negotiated, 2025-06-18, has no URL elicitation: URL questions need " +
          "2025-11-25 or later, so a client that negotiates 2025-11-25 or later and declares elicitation.url at initialize is asked.",
        data: { requiredCapabilities: { elicitation: { url: {} } } },
      },
    });
    gemini.send(geminiCall(5, "choose_preferences"));
    expect(await gemini.next()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: -32021,
        message:
          "Missing required client capability: elicitation. This client did not declare it at initialize (it declared " +
          "roots.listChanged); a client that declares elicitation there is asked.",
        data: { requiredCapabilities: { elicitation: {} } },
      },
    });
    expect(gemini.violations).toEqual([]);
  });
});
