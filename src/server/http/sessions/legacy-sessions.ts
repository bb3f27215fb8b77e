import { randomBytes } from "node:crypto";
import type { AuthInfo, Server } from "@modelcontextprotocol/server";
import { PROTOCOL_VERSION_META_KEY, sdk } from "../../request/sdk-module";
import type { AppLogger } from "../../../protocol/app-logger";
import { isPlainObject } from "../../../protocol/plain-object";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { StateSealer } from "../../../state/state-sealer";
import type { MessageBus } from "../../../stores/message-bus";
import type { SessionStateStore } from "../../../stores/session-state";
import { AnswerWaits } from "./answer-waits";
import { CallTakeover } from "./call-takeover";
import { InstanceHeartbeat } from "./instance-heartbeat";
import { LiveSession } from "./live-session";
import { questionOf, SessionAnswers } from "./session-answers";
import { SessionEventLog } from "./session-event-log";
import type { ResolvedSessionOptions } from "./session-options";
import { SessionRounds, type LegacyRounds } from "./session-rounds";
import { LiveSettings, SettingsShare } from "./session-settings";
import { jsonError, notFound, notWaiting, relayRefused } from "./session-responses";
import { SessionTable } from "./session-table";
import { SessionToken } from "./session-token";
import { SessionTransport } from "./session-transport";
import { SessionStreams } from "./session-streams";
import { StreamLog } from "./stream-log";
import { sessionRef, StreamTokens } from "./stream-tokens";

/** How long a handover waits for the shared state before the instance goes on shutting down. */
const HANDOVER_MS = 2_000;
/** Where ended sessions are announced. */
const ENDED_CHANNEL = "roundtrip-mcp/2025/ended";

export interface LegacySessionsOptions {
  readonly sealer: StateSealer;
  readonly logger: AppLogger;
  readonly bus: MessageBus;
  /** What the instances share of their sessions: the bus's, or this instance's own. */
  readonly state: SessionStateStore;
  readonly options: ResolvedSessionOptions;
  /** A new SDK `Server` of the 2025 era for one session, answering through the dispatcher. */
  readonly makeServer: (session: { settings: LiveSettings; rounds: LegacyRounds }) => Server;
  readonly now?: () => number;
}

/**
 * The sessionful 2025-11-25 leg of every HTTP entry (beside the stateless 2026-07-28 path): an
 * `initialize` opens a session served by the SDK's own sessionful transport and a 2025-era SDK
 * `Server` whose handlers are the dispatcher's, and a call that must ask the client runs its
 * rounds as real `elicitation/create` requests on its SSE stream (`SessionRounds`). The session
 * id seals what the client declared, so any instance sharing the key ring serves the session's
 * next request (re-creating it from the id). What the instances share through the bus
 * (`SessionStateStore`: the PostgreSQL bus's tables) lets any of them take the client's answers
 * and resume its streams (`SessionStreams`), taking a call over when its instance is gone.
 */
export class LegacySessions {
  readonly tag = randomBytes(6).toString("base64url");
  private readonly sessions: SessionTable;
  private readonly tokens: SessionToken;
  private readonly streamTokens: StreamTokens;
  private readonly log: StreamLog;
  private readonly waits = new AnswerWaits();
  private readonly rounds: SessionRounds;
  private readonly answers: SessionAnswers;
  private readonly streams: SessionStreams;
  private readonly settings: SettingsShare;
  private readonly heartbeat: InstanceHeartbeat;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly subscribed: Promise<(() => Promise<void>) | undefined>;
  private closed = false;

  constructor(private readonly deps: LegacySessionsOptions) {
    const { options, state, bus, logger } = deps;
    this.tokens = new SessionToken(deps.sealer, options.maxLifetimeMs);
    this.streamTokens = new StreamTokens(deps.sealer, options.maxLifetimeMs);
    this.now = deps.now ?? Date.now;
    const checkEveryMs = Math.max(250, Math.min(2_000, Math.floor(options.takeoverAfterMs / 2)));
    this.log = new StreamLog(state, bus, logger, options.maxReplayEvents);
    this.rounds = new SessionRounds({
      tag: this.tag,
      options,
      state,
      waits: this.waits,
      logger,
      checkEveryMs,
      session: (id) => (id === undefined ? undefined : this.sessions.get(id)),
    });
    this.answers = new SessionAnswers({ tag: this.tag, state, bus, waits: this.waits, logger });
    const takeover = new CallTakeover({ tag: this.tag, state, logger });
    this.streams = new SessionStreams({ log: this.log, state, tokens: this.streamTokens, takeover, checkEveryMs, options });
    this.settings = new SettingsShare(state, bus, logger, options.maxLifetimeMs, (key) => this.sessions.byKey(key)?.settings);
    this.heartbeat = new InstanceHeartbeat(state, this.tag, options.takeoverAfterMs, options.replayLifetimeMs, logger);
    this.sessions = new SessionTable({
      tag: this.tag,
      options,
      logger,
      tokens: this.tokens,
      settings: this.settings,
      now: this.now,
      create: (id, principal) => this.create(id, principal),
    });
    const every = Math.min(60_000, Math.max(1_000, Math.floor(options.idleTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sessions.sweep(), every);
    this.sweeper.unref();
    this.subscribed = bus.subscribe(ENDED_CHANNEL, (message) => this.sessions.endedElsewhere(message)).catch(() => undefined);
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
    if (this.closed) return jsonError(503, -32000, "The server is shutting down", { "retry-after": "1" });
    const id = request.headers.get("mcp-session-id");
    if (id === null) return this.sessions.open(request, body, principal, authInfo);
    const local = this.sessions.get(id);
    if (local !== undefined && local.principal !== principal) return notFound();
    if (local === undefined && this.sessions.wasEnded(id)) return notFound();
    const facts = local === undefined ? this.tokens.open(id, principal) : undefined;
    if (local === undefined && facts === undefined) return notFound();
    const session = () => local ?? this.sessions.adopt(id, facts!, principal);
    if (request.method === "DELETE") {
      if (local !== undefined) await this.sessions.end(local);
      this.sessions.forget(id);
      await this.settings.drop(sessionRef(id, principal));
      void this.deps.bus.publish(ENDED_CHANNEL, { id }).catch(() => undefined);
      return new Response(null, { status: 200 });
    }
    if (request.method === "POST" && isAnswers(body)) {
      // The client's answers to questions of this session's calls, wherever their rounds run.
      const all = (Array.isArray(body) ? body : [body]) as Array<{ id?: unknown }>;
      const takeOver = async (key: string) => {
        const held = await session();
        if (held !== undefined) await this.streams.takeOver(held, key, authInfo);
      };
      const fates = await Promise.all(
        all.filter((a) => questionOf(a.id) !== undefined).map((a) => this.answers.take(a.id as string, a as JsonValue, takeOver)),
      );
      if (fates.includes("unavailable")) return relayRefused();
      if (fates.includes("not-waiting")) return notWaiting();
      const others = all.filter((a) => questionOf(a.id) === undefined);
      if (others.length === 0) return new Response(null, { status: 202 });
      body = Array.isArray(body) ? others : others[0];
    }
    const held = await session();
    if (held === undefined) return jsonError(503, -32000, "Too many sessions on this instance; retry later", { "retry-after": "1" });
    held.lastUsed = this.now();
    const lastEventId = request.headers.get("last-event-id");
    if (request.method === "GET" && lastEventId !== null) return this.streams.resume(held, request, lastEventId, authInfo);
    const requests = (Array.isArray(body) ? body : [body]).some((m) => isPlainObject(m) && typeof m.method === "string" && "id" in m);
    const response =
      request.method === "POST" && requests
        ? await held.post(request, body, authInfo)
        : await held.transport.handleRequest(request, { parsedBody: body, authInfo });
    this.pollLater(held, body, response);
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
      if (session.settings.subscriptions.has(uri)) void session.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }

  /**
   * A listener drains: every session's GET stream and every stream resumed here ends (their calls
   * were handed over, or run elsewhere; the client resumes them on another instance).
   */
  async endStreams(): Promise<void> {
    await this.handOver();
    for (const session of this.sessions.values()) session.transport.closeStandaloneSSEStream();
    this.streams.endAll();
  }

  /** Hands the running calls over, says this instance is gone, ends every session and leaves the bus. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    await this.handOver();
    this.streams.endAll();
    await this.heartbeat.stop();
    await Promise.all([...this.sessions.values()].map((session) => this.sessions.end(session)));
    await this.log.close();
    await Promise.all([this.answers.close(), this.settings.close()]);
    const off = await this.subscribed;
    await off?.().catch(() => undefined);
  }

  /**
   * The calls running here leave (a listener's drain deadline, or the app closing): their streams
   * close here, and the shared state lets any instance claim them at once, for the client that
   * resumes them or answers their questions.
   */
  async handOver(): Promise<number> {
    const left = [];
    for (const [key, call] of [...this.rounds.running]) {
      const { stream } = call;
      if (stream.released) continue;
      stream.released = true;
      this.sessions.get(stream.session.id)?.closeStreams(stream);
      this.log.released(key);
      call.leave("handed over: the instance is shutting down");
      left.push(stream);
    }
    if (left.length === 0) return 0;
    // Bounded: a shared state that does not answer leaves the calls to be taken over once this instance's heartbeat lapses.
    const released = (async () => {
      await this.log.flush();
      await Promise.all(left.filter((s) => s.recorded).map((s) => this.deps.state.releaseCall(s.key, s.gen, this.tag)));
    })();
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), HANDOVER_MS).unref());
    const settled = await Promise.race([
      released.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
    this.deps.logger.info("2025 sessions: calls handed over to the other instances", { calls: left.length, released: settled });
    return left.length;
  }

  private async create(id: string | undefined, principal: string | null): Promise<LiveSession> {
    const { options } = this.deps;
    void this.heartbeat.start();
    const ref = sessionRef(id ?? "", principal);
    const events = new SessionEventLog(ref, this.log, this.streamTokens, this.tag, options.maxReplayEvents);
    const transport = new (sdk().WebStandardStreamableHTTPServerTransport)({
      sessionIdGenerator: id === undefined ? undefined : () => id,
      eventStore: events,
      retryInterval: options.retryMs,
    });
    const sessionTransport = new SessionTransport(transport, events);
    const settings = new LiveSettings(ref, this.settings);
    const server = this.deps.makeServer({ settings, rounds: this.rounds });
    await server.connect(sessionTransport);
    return new LiveSession(ref, server, transport, sessionTransport, events, settings, this.now());
  }

  /** With `pollAfterMs`: closes a request's SSE stream that is still open then; the client resumes it with Last-Event-ID. */
  private pollLater(session: LiveSession, body: unknown, response: Response): void {
    const after = this.deps.options.pollAfterMs;
    if (after === undefined || !isPlainObject(body) || typeof body.method !== "string" || body.id === undefined) return;
    if (!response.headers.get("content-type")?.includes("text/event-stream")) return;
    const id = body.id as string | number;
    setTimeout(() => session.transport.closeSSEStream(id), after).unref();
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
