import type { AuthInfo } from "@modelcontextprotocol/server";
import type { SessionStateStore } from "../../../stores/session-state";
import type { CallTakeover, TakeoverSession } from "./call-takeover";
import type { LiveSession } from "./live-session";
import type { ResolvedSessionOptions } from "./session-options";
import { StreamFollower } from "./stream-follower";
import type { StreamLog } from "./stream-log";
import type { StreamTokens } from "./stream-tokens";

export interface SessionStreamsDeps {
  readonly log: StreamLog;
  readonly state: SessionStateStore;
  readonly tokens: StreamTokens;
  readonly takeover: CallTakeover;
  readonly checkEveryMs: number;
  readonly options: ResolvedSessionOptions;
}

/**
 * A 2025 client's `GET` with `Last-Event-ID`, on whichever instance it lands: a request's stream
 * is resumed here (`StreamFollower`), the call taken over when its instance is gone; the session's
 * GET stream (notifications only) is resumed from this instance's ring when it wrote it, and opened
 * afresh otherwise, with a list change of each kind the session may have missed.
 */
export class SessionStreams {
  private readonly followers = new Set<StreamFollower>();

  constructor(private readonly deps: SessionStreamsDeps) {}

  async resume(session: LiveSession, request: Request, lastEventId: string, authInfo: AuthInfo): Promise<Response> {
    const parsed = this.deps.tokens.parse(lastEventId, session.ref);
    if (parsed === undefined)
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Invalid Last-Event-ID: not an event id of this session" }, id: null },
        { status: 400 },
      );
    if (parsed.name.key === session.events.standaloneKey) return this.resumeStandalone(session, request, parsed);
    const follower = new StreamFollower(parsed, {
      events: session.events,
      log: this.deps.log,
      state: this.deps.state,
      tokens: this.deps.tokens,
      locate: (p) => this.deps.takeover.locate(p.name.key, p.name.tag, this.here(session, authInfo)),
      checkEveryMs: this.deps.checkEveryMs,
      retryMs: this.deps.options.retryMs,
    });
    const response = await follower.start();
    if (response.body !== null) {
      this.followers.add(follower);
      follower.onEnd(() => this.followers.delete(follower));
    }
    return response;
  }

  /** The call of stream `key` has an answer and nobody alive to run it: it runs here. */
  async takeOver(session: LiveSession, key: string, authInfo: AuthInfo): Promise<void> {
    await this.deps.takeover.locate(key, "", this.here(session, authInfo));
  }

  /** Ends every stream resumed here (the listener drains; the clients resume them elsewhere). */
  endAll(): void {
    for (const follower of [...this.followers]) follower.end();
  }

  private here(session: LiveSession, authInfo: AuthInfo): TakeoverSession {
    return { writes: (key) => session.events.open(key) !== undefined, run: (call) => session.takeOver(call, authInfo) };
  }

  private async resumeStandalone(session: LiveSession, request: Request, parsed: { name: { key: string }; gen: number; seq: number }) {
    // Written here and still in the ring: the SDK's transport replays it (through the session's event log).
    if (session.events.replay(parsed.name.key, parsed) !== undefined) return session.transport.handleRequest(request);
    const headers = new Headers(request.headers);
    headers.delete("last-event-id");
    const response = await session.transport.handleRequest(new Request(request.url, { method: "GET", headers }));
    if (response.status === 200) {
      // What was announced while the stream was away is not here: the client lists again.
      const { tools, prompts, resources } = session.server.getCapabilities();
      if (tools?.listChanged) void session.server.sendToolListChanged().catch(() => undefined);
      if (prompts?.listChanged) void session.server.sendPromptListChanged().catch(() => undefined);
      if (resources?.listChanged) void session.server.sendResourceListChanged().catch(() => undefined);
    }
    return response;
  }
}
