import { randomBytes } from "node:crypto";
import type { AuthInfo, JSONRPCMessage, Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { PROTOCOL_VERSION_META_KEY, sdk } from "../../request/sdk-module";
import type { AppLogger } from "../../../protocol/app-logger";
import { isPlainObject } from "../../../protocol/plain-object";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { StateSealer } from "../../../state/state-sealer";
import type { MessageBus } from "../../../stores/message-bus";
import { ownerOf, RelayTransport } from "./relay-transport";
import { SessionEventLog } from "./session-event-log";
import type { ResolvedSessionOptions } from "./session-options";
import { factsOfInitialize, SessionToken, type SessionFacts } from "./session-token";

/** Where answers for this instance's rounds arrive, and where ended sessions are announced. */
const ANSWERS_CHANNEL = "roundtrip-mcp/2025/answers/";
const ENDED_CHANNEL = "roundtrip-mcp/2025/ended";

interface Session {
  readonly id: string;
  readonly principal: string | null;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly relay: RelayTransport;
  readonly subscriptions: Set<string>;
  lastUsed: number;
}

export interface LegacySessionsOptions {
  readonly sealer: StateSealer;
  readonly logger: AppLogger;
  readonly bus: MessageBus;
  readonly options: ResolvedSessionOptions;
  /** A new SDK `Server` of the 2025 era for one session, answering through the dispatcher. */
  readonly makeServer: (session: { subscriptions: Set<string> }) => Server;
  readonly now?: () => number;
}

/**
 * The sessionful 2025-11-25 leg of every HTTP entry (beside the stateless 2026-07-28 path): an
 * `initialize` opens a session served by the SDK's own sessionful transport and a 2025-era SDK
 * `Server` whose handlers are the dispatcher's, so an `@Elicit` round a 2025 client must answer
 * is asked by the SDK's compatibility shim as a real `elicitation/create` on the request's SSE
 * stream, exactly as over stdio. The session id seals what the client declared, so any instance
 * sharing the key ring serves the session's next request (re-creating it from the id), and an
 * answer POSTed to an instance whose round does not wait for it travels over the bus to the one
 * that does (`RelayTransport` names it in the request id).
 */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  /** Ids of sessions ended (DELETE, idle), until their sealed lifetime is over: they answer 404. */
  private readonly ended = new Map<string, number>();
  private readonly tag = randomBytes(6).toString("base64url");
  private readonly tokens: SessionToken;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly subscribed: Promise<Array<() => Promise<void>>>;
  private closed = false;

  constructor(private readonly deps: LegacySessionsOptions) {
    this.tokens = new SessionToken(deps.sealer, deps.options.maxLifetimeMs);
    this.now = deps.now ?? Date.now;
    const every = Math.min(60_000, Math.max(1_000, Math.floor(deps.options.idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
    this.subscribed = Promise.all([
      deps.bus.subscribe(ANSWERS_CHANNEL + this.tag, (message) => this.answerArrived(message)),
      deps.bus.subscribe(ENDED_CHANNEL, (message) => this.endedElsewhere(message)),
    ]).catch((error: unknown) => {
      deps.logger.error("2025 sessions: could not subscribe to the message bus; answers sent to other instances will not arrive", {
        error: error instanceof Error ? error.message : String(error),
      });
      return [];
    });
  }

  /** Sessions held by this instance (diagnostics, tests). */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Whether this leg serves the request: a 2025 `initialize`, or anything carrying `Mcp-Session-Id`
   * that is not a 2026-07-28 request (which has no `initialize` and ignores that header).
   */
  claims(method: string, header: (name: string) => string | undefined, body: unknown): boolean {
    if (method === "POST" && isModern(body)) return false;
    if (method === "POST" && isPlainObject(body) && body.method === "initialize") return true;
    if (header("mcp-session-id") === undefined) return false;
    return method === "GET" || method === "DELETE" || method === "POST";
  }

  async fetch(request: Request, body: unknown, principal: string | null, authInfo: AuthInfo): Promise<Response> {
    if (this.closed) return jsonError(503, -32000, "The server is shutting down");
    const id = request.headers.get("mcp-session-id");
    if (id === null) return this.open(request, body, principal, authInfo);
    const local = this.sessions.get(id);
    if (local !== undefined && local.principal !== principal) return notFound();
    if (local === undefined && this.ended.has(id)) return notFound();
    const facts = local === undefined ? this.tokens.open(id, principal) : undefined;
    if (local === undefined && facts === undefined) return notFound();
    if (request.method === "DELETE") {
      if (local !== undefined) await this.end(local);
      this.forget(id);
      void this.deps.bus.publish(ENDED_CHANNEL, { id }).catch(() => undefined);
      return new Response(null, { status: 200 });
    }
    if (local === undefined && request.method === "POST" && isAnswers(body)) {
      // The answer to a question another instance asked: it goes where the round waits.
      const answers = (Array.isArray(body) ? body : [body]) as Array<{ id?: unknown }>;
      const relayed = await Promise.all(answers.map((answer) => this.relay(id, answer)));
      return relayed.includes(false) ? relayRefused() : new Response(null, { status: 202 });
    }
    const session = local ?? (await this.adopt(id, facts!, principal, request));
    if (session === undefined) return jsonError(503, -32000, "Too many sessions on this instance; retry later", { "retry-after": "1" });
    session.lastUsed = this.now();
    if (request.method === "POST" && isAnswers(body)) {
      const answers = (Array.isArray(body) ? body : [body]) as Array<{ id?: unknown }>;
      const elsewhere = answers.filter((answer) => ownerOf(answer.id) !== undefined && ownerOf(answer.id) !== this.tag);
      if (elsewhere.length > 0) {
        const relayed = await Promise.all(elsewhere.map((answer) => this.relay(id, answer)));
        if (relayed.includes(false)) return relayRefused();
        if (elsewhere.length === answers.length) return new Response(null, { status: 202 });
      }
    }
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    this.pollLater(session, body, response);
    return response;
  }

  toolsChanged(): void {
    for (const session of this.sessions.values()) void session.server.sendToolListChanged().catch(() => undefined);
  }

  promptsChanged(): void {
    for (const session of this.sessions.values()) void session.server.sendPromptListChanged().catch(() => undefined);
  }

  resourcesChanged(): void {
    for (const session of this.sessions.values()) void session.server.sendResourceListChanged().catch(() => undefined);
  }

  resourceUpdated(uri: string): void {
    for (const session of this.sessions.values()) {
      if (session.subscriptions.has(uri)) void session.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }

  /** Closes every session's GET stream (a listener drains): it carries notifications only, and the client may reconnect elsewhere. */
  endStreams(): void {
    for (const session of this.sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  /** Ends every session (their streams close) and leaves the bus. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => this.end(session)));
    const unsubscribe = await this.subscribed;
    await Promise.all(unsubscribe.map((off) => off().catch(() => undefined)));
  }

  /** `initialize` without a session: a new session, whose id the SDK transport sends back. */
  private async open(request: Request, body: unknown, principal: string | null, authInfo: AuthInfo): Promise<Response> {
    const facts = isPlainObject(body) ? factsOfInitialize(body.params) : undefined;
    // A malformed initialize is the SDK's to refuse, on a transport of its own that keeps nothing.
    const id = facts === undefined ? undefined : this.tokens.seal(facts, principal);
    const refusal = this.makeRoom(principal);
    if (refusal !== undefined) return refusal;
    const session = await this.create(id, principal);
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (id === undefined || response.status !== 200 || response.headers.get("mcp-session-id") !== id) {
      await this.end(session);
      return response;
    }
    this.sessions.set(id, session);
    return response;
  }

  /** A session opened on another instance (or before a restart): made again here from its sealed facts. */
  private async adopt(id: string, facts: SessionFacts, principal: string | null, request: Request): Promise<Session | undefined> {
    if (this.makeRoom(principal) !== undefined) return undefined;
    const session = await this.create(id, principal);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await session.transport.handleRequest(new Request(request.url, { method: "POST", headers }), {
      parsedBody: { jsonrpc: "2.0", id: 0, method: "initialize", params: facts },
    });
    await init.text();
    const initialized = await session.transport.handleRequest(
      new Request(request.url, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": facts.protocolVersion },
      }),
      { parsedBody: { jsonrpc: "2.0", method: "notifications/initialized" } },
    );
    await initialized.text();
    // Another request of the same session may have adopted it meanwhile: keep one.
    const raced = this.sessions.get(id);
    if (raced !== undefined) {
      await this.end(session);
      return raced;
    }
    this.sessions.set(id, session);
    this.deps.logger.debug("2025 session adopted from its id", { instance: this.tag });
    return session;
  }

  private async create(id: string | undefined, principal: string | null): Promise<Session> {
    const { options } = this.deps;
    const transport = new (sdk().WebStandardStreamableHTTPServerTransport)({
      sessionIdGenerator: id === undefined ? undefined : () => id,
      eventStore: new SessionEventLog(options.maxReplayEvents),
      retryInterval: options.retryMs,
    });
    const relay = new RelayTransport(transport, this.tag, options.maxPendingRequests, options.answerTimeoutMs);
    const subscriptions = new Set<string>();
    const server = this.deps.makeServer({ subscriptions });
    await server.connect(relay);
    return { id: id ?? "", principal, server, transport, relay, subscriptions, lastUsed: this.now() };
  }

  /** With `pollAfterMs`: closes a request's SSE stream that is still open then; the client resumes it with Last-Event-ID. */
  private pollLater(session: Session, body: unknown, response: Response): void {
    const after = this.deps.options.pollAfterMs;
    if (after === undefined || !isPlainObject(body) || typeof body.method !== "string" || body.id === undefined) return;
    if (!response.headers.get("content-type")?.includes("text/event-stream")) return;
    const id = body.id as string | number;
    setTimeout(() => session.transport.closeSSEStream(id), after).unref();
  }

  /** Undefined when one more session fits (after ending the principal's least recently used if it must), else the refusal. */
  private makeRoom(principal: string | null): Response | undefined {
    const { maxSessions, maxSessionsPerPrincipal } = this.deps.options;
    const own = [...this.sessions.values()].filter((s) => s.principal === principal);
    if (own.length >= maxSessionsPerPrincipal) {
      const idle = own.filter((s) => s.relay.waiting === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle === undefined) {
        return jsonError(
          429,
          -32000,
          `Too many sessions for this principal (sessions.maxSessionsPerPrincipal: ${maxSessionsPerPrincipal}), each waiting for an answer; ` +
            "answer or DELETE one first",
        );
      }
      this.deps.logger.info("2025 session ended to make room for a new one of the same principal", { maxSessionsPerPrincipal });
      void this.end(idle);
      this.forget(idle.id);
    }
    if (this.sessions.size >= maxSessions) {
      return jsonError(503, -32000, `Too many sessions on this instance (sessions.maxSessions: ${maxSessions}); retry later`, {
        "retry-after": "1",
      });
    }
    return undefined;
  }

  /** Publishes an answer to the instance whose round waits for it; false when the bus refused it. */
  private async relay(id: string, answer: { id?: unknown }): Promise<boolean> {
    const owner = ownerOf(answer.id);
    if (owner === undefined || owner === this.tag) return true;
    try {
      await this.deps.bus.publish(ANSWERS_CHANNEL + owner, { session: id, message: answer as JsonValue });
      return true;
    } catch (error) {
      this.deps.logger.warn("2025 sessions: an answer could not be relayed to the instance waiting for it", {
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  private answerArrived(message: JsonValue): void {
    if (!isPlainObject(message) || typeof message.session !== "string") return;
    const session = this.sessions.get(message.session);
    if (session === undefined) return;
    session.lastUsed = this.now();
    session.relay.deliver(message.message as JSONRPCMessage);
  }

  private endedElsewhere(message: JsonValue): void {
    if (!isPlainObject(message) || typeof message.id !== "string") return;
    const session = this.sessions.get(message.id);
    if (session !== undefined) void this.end(session);
    this.forget(message.id);
  }

  /** Remembers an ended id so it answers 404 (until its sealed lifetime would have ended it anyway). */
  private forget(id: string): void {
    this.sessions.delete(id);
    this.ended.set(id, this.now() + this.deps.options.maxLifetimeMs);
  }

  private async end(session: Session): Promise<void> {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    await session.server.close().catch(() => undefined);
  }

  private sweep(): void {
    const now = this.now();
    for (const session of [...this.sessions.values()]) {
      if (session.relay.waiting === 0 && now - session.lastUsed >= this.deps.options.idleTimeoutMs) {
        this.deps.logger.debug("2025 session ended after being idle", { idleTimeoutMs: this.deps.options.idleTimeoutMs });
        void this.end(session);
        this.forget(session.id);
      }
    }
    for (const [id, until] of this.ended) if (until <= now) this.ended.delete(id);
  }
}

function isModern(body: unknown): boolean {
  const meta = isPlainObject(body) && isPlainObject(body.params) ? body.params._meta : undefined;
  return isPlainObject(meta) && typeof meta[PROTOCOL_VERSION_META_KEY] === "string";
}

/** A POST holding only JSON-RPC responses (the client's answers to server-to-client requests). */
function isAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => isPlainObject(m) && m.method === undefined && ("result" in m || "error" in m));
}

function notFound(): Response {
  // The 2025-11-25 transport: an unknown or ended session is 404, and the client initializes again.
  return jsonError(404, -32001, "Session not found: initialize a new session");
}

function jsonError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}

/**
 * An answer that could not reach the instance waiting for it (the shared bus is unavailable): 503,
 * so the client knows it was not taken and may send it again, instead of a 202 for an answer lost.
 */
function relayRefused(): Response {
  return jsonError(
    503,
    -32000,
    "This answer could not be passed to the server instance waiting for it (the shared message bus is unavailable); send it again shortly",
    { "retry-after": "1" },
  );
}
