import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { ErrorCode } from "../../../protocol/errors";
import type { SessionStateStore, StreamEventRow } from "../../../stores/session-state";
import { responseId, type LogEvent } from "./local-stream";
import type { SessionEventLog } from "./session-event-log";
import { SseStream } from "./sse-stream";
import type { StreamLog } from "./stream-log";
import { after, type ParsedEventId, type Position, type RequestId, type StreamTokens } from "./stream-tokens";

/** The generation of the event ids of a stream the server ended itself: resuming from one gets 204. */
export const ENDED_GEN = 999_999_999;

/** Who writes a stream now. */
export type Producer = "here" | "elsewhere" | { readonly none: string };

export interface FollowerDeps {
  readonly events: SessionEventLog;
  readonly log: StreamLog;
  readonly state: SessionStateStore;
  readonly tokens: StreamTokens;
  /** Finds (taking over the call when its instance is gone) who writes the stream now. */
  locate(parsed: ParsedEventId): Promise<Producer>;
  /** How often a stream written elsewhere is checked (the shared log read, its writer's liveness). */
  readonly checkEveryMs: number;
  /** `sessions.retryMs`, repeated at the start of the resumed stream. */
  readonly retryMs: number;
}

const BEGINNING: Position = { gen: -1, seq: -1 };

/**
 * A client's stream resumed with `Last-Event-ID` on this instance, whichever instance wrote it:
 * what the client missed (from this instance's ring, else the shared log), then what follows as it
 * is written, here (at once) or by another instance (read from the shared log when that instance
 * announces it, and every `checkEveryMs`). When the instance writing it is gone, the call is taken
 * over here (`locate`); when it cannot be, the stream ends with a JSON-RPC error for each request
 * still unanswered, at once. It ends when every request of the stream has its response.
 */
export class StreamFollower {
  private last: Position;
  private readonly unanswered: Set<RequestId>;
  private sse?: SseStream;
  private replaying = true;
  private readonly held: LogEvent[] = [];
  private readonly stops: (() => void)[] = [];
  private checkTimer?: NodeJS.Timeout;
  private pulling?: Promise<void>;
  private sawResponse = false;

  constructor(
    private readonly parsed: ParsedEventId,
    private readonly deps: FollowerDeps,
  ) {
    this.last = parsed;
    this.unanswered = new Set(parsed.name.requestIds);
  }

  /** The resumed stream, or 204 when nothing more will come on it (every request was answered before that event). */
  async start(): Promise<Response> {
    const { key } = this.parsed.name;
    if (this.parsed.gen === ENDED_GEN) return new Response(null, { status: 204 });
    const history = await this.history();
    for (const event of history ?? []) if (!after(event, this.parsed)) this.answered(event.message);
    if (this.complete()) return new Response(null, { status: 204 });
    const sse = (this.sse = new SseStream(this.deps.events.session.id));
    sse.onEnd(() => this.stop());
    sse.prime(this.deps.tokens.eventId(this.parsed.token, this.parsed), this.deps.retryMs);
    this.stops.push(this.deps.log.watchLocal(key, { event: (event) => this.live(event), end: () => sse.close() }));
    if (this.deps.state.shared) this.stops.push(this.deps.log.watchRemote(key, () => void this.pull()));
    for (const event of history ?? []) this.deliver(event);
    this.replaying = false;
    for (const event of this.held.splice(0)) this.deliver(event);
    void this.follow();
    return sse.response;
  }

  /** Ends the resumed stream (the instance drains: the client resumes it elsewhere). */
  end(): void {
    this.sse?.close();
  }

  onEnd(ending: () => void): void {
    if (this.sse === undefined) ending();
    else this.sse.onEnd(ending);
  }

  /** Everything this instance or the shared log has of the stream; undefined when neither knows it. */
  private async history(): Promise<LogEvent[] | undefined> {
    const local = this.deps.events.replay(this.parsed.name.key, BEGINNING);
    if (local !== undefined || !this.deps.state.shared) return local?.events;
    const rows = await this.deps.state.eventsAfter(this.parsed.name.key, BEGINNING.gen, BEGINNING.seq).catch(() => undefined);
    return rows?.map((row) => this.eventOf(row));
  }

  /** Finds who writes the stream; keeps checking while it is another instance. */
  private async follow(): Promise<void> {
    if (this.sse!.closed || this.complete()) return;
    const producer = await this.deps.locate(this.parsed).catch(() => "elsewhere" as const);
    if (this.sse!.closed || producer === "here") return;
    if (producer === "elsewhere")
      return void (this.checkTimer = later(this.deps.checkEveryMs, () => void this.pull().then(() => this.follow())));
    // Nobody writes it any more: what the log has is all there is.
    await this.pull();
    if (!this.complete()) this.fail(producer.none);
  }

  private live(event: LogEvent): void {
    if (this.replaying) this.held.push(event);
    else this.deliver(event);
  }

  /** Reads the shared log after the last event delivered. */
  private pull(): Promise<void> {
    if (!this.deps.state.shared || this.sse?.closed !== false) return Promise.resolve();
    return (this.pulling ??= this.deps.state
      .eventsAfter(this.parsed.name.key, this.last.gen, this.last.seq)
      .then((rows) => rows.forEach((row) => this.deliver(this.eventOf(row))))
      .catch(() => undefined)
      .finally(() => (this.pulling = undefined)));
  }

  private deliver(event: LogEvent): void {
    const sse = this.sse!;
    if (sse.closed || !after(event, this.last)) return;
    this.last = event;
    sse.send(event.id, event.message);
    this.answered(event.message);
    if (this.complete()) sse.close();
  }

  private answered(message: JSONRPCMessage): void {
    const id = responseId(message);
    if (id === undefined) return;
    this.sawResponse = true;
    this.unanswered.delete(id);
  }

  /** Every request of the stream has its response (a token naming none, its ids too long to seal: the first response). */
  private complete(): boolean {
    return this.parsed.name.requestIds.length === 0 ? this.sawResponse : this.unanswered.size === 0;
  }

  /** Ends the stream with a JSON-RPC error for each request still unanswered (event ids that resume to 204). */
  private fail(message: string): void {
    const sse = this.sse!;
    let seq = 0;
    for (const id of this.unanswered) {
      const error = { code: ErrorCode.InternalError, message, data: { reason: "not-resumable" } };
      sse.send(this.deps.tokens.eventId(this.parsed.token, { gen: ENDED_GEN, seq: seq++ }), { jsonrpc: "2.0", id, error });
    }
    sse.close();
  }

  private eventOf(row: StreamEventRow): LogEvent {
    return { gen: row.gen, seq: row.seq, id: this.deps.tokens.eventId(this.parsed.token, row), message: JSON.parse(row.body) };
  }

  private stop(): void {
    clearTimeout(this.checkTimer);
    for (const stop of this.stops.splice(0)) stop();
  }
}

function later(ms: number, then: () => void): NodeJS.Timeout {
  const timer = setTimeout(then, ms);
  timer.unref();
  return timer;
}
