import { randomBytes } from "node:crypto";
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { CallRow } from "../../../stores/session-state";
import { LocalStream, responseId, type LogEvent } from "./local-stream";
import type { StreamLog } from "./stream-log";
import { after, type Position, type RequestId, type SessionRef, type StreamName, type StreamTokens } from "./stream-tokens";

/** The SDK transport's name for a session's GET stream. */
const STANDALONE = "_GET_stream";

interface RingEvent {
  readonly stream: LocalStream;
  readonly event: LogEvent;
}

/**
 * The events of one session's streams on this instance (the SDK transport's `EventStore`), each
 * numbered in its stream and named by an id any instance can read (`StreamTokens`), kept in a ring
 * of the last `maxEvents` for resumptions here and handed to the app's `StreamLog`.
 *
 * The SDK names a POST's stream by a random id of its own and tells the store only that id (for
 * the priming event) or the message (for the rest). So the session binds a POST's stream to its
 * requests before the SDK sees it (`begin`, then `expect` while the SDK opens it, which stores
 * the priming event), and the session's transport names the request each later message belongs
 * to (`current`) for the synchronous moment in which the SDK stores it.
 *
 * The ring: the last `maxEvents` events in as many slots, not a Map with the oldest entry deleted
 * per event: a Map churned per event is rebuilt every few events, and V8 leaves each old table
 * pointing to the next (see `InFlightRequests` in `../http-drain.ts`).
 */
export class SessionEventLog implements EventStore {
  /** The request a message being sent belongs to (set by the session's transport around the SDK's send). */
  current: RequestId | undefined;
  private readonly ring: (RingEvent | undefined)[] = [];
  private written = 0;
  private readonly byRequest = new Map<RequestId, LocalStream>();
  private readonly bySdkId = new Map<string, LocalStream>();
  private expecting?: LocalStream;
  private standalone?: LocalStream;

  constructor(
    readonly session: SessionRef,
    private readonly log: StreamLog,
    private readonly tokens: StreamTokens,
    private readonly tag: string,
    private readonly maxEvents: number,
  ) {}

  /** A new stream for the requests of one POST (a call taken over from another instance: its row and generation). */
  begin(requestIds: readonly RequestId[], request: JsonValue | undefined, takeover?: CallRow): LocalStream {
    const key = takeover?.stream ?? randomBytes(16).toString("base64url");
    const name: StreamName = { key, tag: this.tag, requestIds };
    const stream = new LocalStream(name, this.session, takeover?.gen ?? 0, true, request, takeover, (n) =>
      this.tokens.seal(n, this.session),
    );
    for (const id of requestIds) this.byRequest.set(id, stream);
    return stream;
  }

  /** The stream the SDK opens next (its priming event), while it opens it. */
  expect(stream: LocalStream | undefined): void {
    this.expecting = stream;
  }

  /** The stream of a request in flight here. */
  streamOf(requestId: RequestId | undefined): LocalStream | undefined {
    return requestId === undefined ? undefined : this.byRequest.get(requestId);
  }

  /** The open stream of key `key` written here, if any. */
  open(key: string): LocalStream | undefined {
    for (const stream of this.byRequest.values()) if (stream.key === key && !stream.released) return stream;
    return undefined;
  }

  /** The streams in flight here. */
  streams(): LocalStream[] {
    return [...new Set(this.byRequest.values())];
  }

  /**
   * The events of stream `key` after `from`, from the ring, when the ring still holds all of them
   * (and knows the stream); undefined otherwise.
   */
  replay(key: string, from: Position): { stream: LocalStream; events: LogEvent[] } | undefined {
    let stream = this.open(key);
    const events: LogEvent[] = [];
    for (let n = Math.max(0, this.written - this.maxEvents); n < this.written; n++) {
      const held = this.ring[n % this.maxEvents]!;
      if (held.stream.key !== key) continue;
      stream ??= held.stream;
      if (after(held.event, from)) events.push(held.event);
    }
    if (stream === undefined || (stream.trimmedTo !== undefined && after(stream.trimmedTo, from))) return undefined;
    return { stream, events };
  }

  storeEvent(sdkStreamId: string, message: JSONRPCMessage): Promise<string> {
    const priming = !("jsonrpc" in message);
    const stream = this.streamFor(sdkStreamId, priming);
    if (priming) {
      // Its id names the stream's start; it carries nothing to replay.
      this.expecting = undefined;
      return Promise.resolve(this.tokens.eventId(stream.token, { gen: stream.gen, seq: 0 }));
    }
    const id = responseId(message);
    if (stream.released) return Promise.resolve(this.tokens.eventId(stream.token, { gen: stream.gen, seq: stream.seq }));
    const position = stream.next();
    const event: LogEvent = { ...position, id: this.tokens.eventId(stream.token, position), message };
    this.keep(stream, event);
    this.log.record(stream, event);
    if (id !== undefined && stream.open.delete(id)) {
      if (stream.recorded) this.log.finish(stream);
      if (stream.open.size === 0) this.abandon(stream);
    }
    return Promise.resolve(event.id);
  }

  /** For a GET resumed here from an event of the GET stream (the SDK replays it). */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const parsed = this.tokens.parse(eventId, this.session);
    if (parsed === undefined || parsed.name.key !== this.standaloneKey) return undefined;
    return this.replay(parsed.name.key, parsed) === undefined ? undefined : STANDALONE;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = this.tokens.parse(lastEventId, this.session);
    const held = parsed === undefined || parsed.name.key !== this.standaloneKey ? undefined : this.replay(parsed.name.key, parsed);
    if (held === undefined) return "";
    for (const event of held.events) await send(event.id, event.message);
    return STANDALONE;
  }

  /** The key of this session's GET stream. */
  get standaloneKey(): string {
    return `${this.session.key}.get`;
  }

  private streamFor(sdkStreamId: string, priming: boolean): LocalStream {
    if (sdkStreamId === STANDALONE) {
      return (this.standalone ??= new LocalStream(
        { key: this.standaloneKey, tag: this.tag, requestIds: [] },
        this.session,
        0,
        false,
        undefined,
        undefined,
        (n) => this.tokens.seal(n, this.session),
      ));
    }
    let stream = priming ? this.expecting : (this.streamOf(this.current) ?? this.bySdkId.get(sdkStreamId));
    // A stream the session did not announce (it cannot happen through LegacySessions): numbered, not resumable elsewhere.
    stream ??= this.begin([], undefined);
    this.bySdkId.set(sdkStreamId, stream);
    return stream;
  }

  private keep(stream: LocalStream, event: LogEvent): void {
    const slot = this.written++ % this.maxEvents;
    const evicted = this.ring[slot];
    if (evicted !== undefined) evicted.stream.trimmedTo = evicted.event;
    this.ring[slot] = { stream, event };
  }

  /** A stream whose requests were all answered (or that never opened): found through the ring from now on, if at all. */
  abandon(stream: LocalStream): void {
    for (const id of stream.name.requestIds) if (this.byRequest.get(id) === stream) this.byRequest.delete(id);
    for (const [sdkId, held] of this.bySdkId) if (held === stream) this.bySdkId.delete(sdkId);
  }
}
