import type { AuthInfo } from "@modelcontextprotocol/server";
import type { AppLogger } from "../../../protocol/app-logger";
import type { JsonValue } from "../../../protocol/canonical-json";
import { isPlainObject } from "../../../protocol/plain-object";
import type { LiveSession } from "./live-session";
import type { ResolvedSessionOptions } from "./session-options";
import { jsonError } from "./session-responses";
import type { SettingsShare } from "./session-settings";
import { factsOfInitialize, type SessionFacts, type SessionToken } from "./session-token";

export interface SessionTableDeps {
  readonly tag: string;
  readonly options: ResolvedSessionOptions;
  readonly logger: AppLogger;
  readonly tokens: SessionToken;
  readonly settings: SettingsShare;
  readonly now: () => number;
  /** A new session's parts (its SDK server connected to its transport), not yet initialized. */
  create(id: string | undefined, principal: string | null): Promise<LiveSession>;
}

/**
 * The 2025 sessions this instance holds, within their bounds: opened by `initialize`, adopted from
 * their sealed ids (with the settings the other instances share), ended when idle, evicted for a
 * newer one of the same principal, and remembered once ended so their ids answer 404.
 */
export class SessionTable {
  private readonly sessions = new Map<string, LiveSession>();
  /** Ids of sessions ended (DELETE, idle), until their sealed lifetime is over: they answer 404. */
  private readonly ended = new Map<string, number>();

  constructor(private readonly deps: SessionTableDeps) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  values(): IterableIterator<LiveSession> {
    return this.sessions.values();
  }

  wasEnded(id: string): boolean {
    return this.ended.has(id);
  }

  /** `initialize` without a session: a new session, whose id the SDK transport sends back. */
  async open(request: Request, body: unknown, principal: string | null, authInfo: AuthInfo): Promise<Response> {
    const facts = isPlainObject(body) ? factsOfInitialize(body.params) : undefined;
    // A malformed initialize is the SDK's to refuse, on a transport of its own that keeps nothing.
    const id = facts === undefined ? undefined : this.deps.tokens.seal(facts, principal);
    const refusal = this.makeRoom(principal);
    if (refusal !== undefined) return refusal;
    const session = await this.deps.create(id, principal);
    const response = await session.transport.handleRequest(request, { parsedBody: body, authInfo });
    if (id === undefined || response.status !== 200 || response.headers.get("mcp-session-id") !== id) {
      await this.end(session);
      return response;
    }
    this.sessions.set(id, session);
    return response;
  }

  /** A session opened on another instance (or before a restart): made again here from its sealed facts and shared settings. */
  async adopt(id: string, facts: SessionFacts, principal: string | null): Promise<LiveSession | undefined> {
    if (this.makeRoom(principal) !== undefined) return undefined;
    const session = await this.deps.create(id, principal);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await session.transport.handleRequest(new Request("http://localhost/mcp", { method: "POST", headers }), {
      parsedBody: { jsonrpc: "2.0", id: 0, method: "initialize", params: facts },
    });
    await init.text();
    const initialized = await session.transport.handleRequest(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": facts.protocolVersion },
      }),
      { parsedBody: { jsonrpc: "2.0", method: "notifications/initialized" } },
    );
    await initialized.text();
    await this.deps.settings.load(session.settings);
    // Another request of the same session may have adopted it meanwhile: keep one.
    const raced = this.sessions.get(id);
    if (raced !== undefined) {
      await this.end(session);
      return raced;
    }
    this.sessions.set(id, session);
    this.deps.logger.debug("2025 session adopted from its id", { instance: this.deps.tag });
    return session;
  }

  /** Undefined when one more session fits (after ending the principal's least recently used if it must), else the refusal. */
  private makeRoom(principal: string | null): Response | undefined {
    const { maxSessions, maxSessionsPerPrincipal } = this.deps.options;
    const own = [...this.sessions.values()].filter((s) => s.principal === principal);
    if (own.length >= maxSessionsPerPrincipal) {
      const idle = own.filter((s) => this.idle(s)).sort((a, b) => a.lastUsed - b.lastUsed)[0];
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

  /** No call of the session runs here. */
  idle(session: LiveSession): boolean {
    return session.waiting === 0 && session.events.streams().length === 0;
  }

  byKey(key: string): LiveSession | undefined {
    for (const session of this.sessions.values()) if (session.ref.key === key) return session;
    return undefined;
  }

  endedElsewhere(message: JsonValue): void {
    if (!isPlainObject(message) || typeof message.id !== "string") return;
    const session = this.sessions.get(message.id);
    if (session !== undefined) void this.end(session);
    this.forget(message.id);
  }

  /** Remembers an ended id so it answers 404 (until its sealed lifetime would have ended it anyway). */
  forget(id: string): void {
    this.sessions.delete(id);
    this.ended.set(id, this.deps.now() + this.deps.options.maxLifetimeMs);
  }

  async end(session: LiveSession): Promise<void> {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    await session.server.close().catch(() => undefined);
  }

  sweep(): void {
    const now = this.deps.now();
    for (const session of [...this.sessions.values()]) {
      if (this.idle(session) && now - session.lastUsed >= this.deps.options.idleTimeoutMs) {
        this.deps.logger.debug("2025 session ended after being idle", { idleTimeoutMs: this.deps.options.idleTimeoutMs });
        void this.end(session);
        this.forget(session.id);
      }
    }
    for (const [id, until] of this.ended) if (until <= now) this.ended.delete(id);
  }
}
