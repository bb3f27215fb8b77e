import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { CallRow } from "../../../stores/session-state";
import type { Position, RequestId, SessionRef, StreamName } from "./stream-tokens";

/** One event of a stream: its position, its id on the wire, its message. */
export interface LogEvent extends Position {
  readonly id: string;
  readonly message: JSONRPCMessage;
}

/**
 * A stream this instance writes: the SSE stream of one POST of a 2025 session (its request, or
 * the requests of a batch), or the session's GET stream. It outlives the HTTP response that
 * carried it: events go on being numbered and logged after the client lost the connection, so
 * that a resumption anywhere finds them.
 */
export class LocalStream {
  /** The number of the last event written (the priming event is 0). */
  seq = 0;
  /** Set once the stream was handed over (draining) or another instance took its call over: nothing more is written. */
  released = false;
  /** The call has a round recorded in the shared state: its final response ends it there too. */
  recorded = false;
  /** The newest position the local ring no longer holds (events up to it must come from the shared log). */
  trimmedTo?: Position;
  /** Requests still waiting for their response. */
  readonly open: Set<RequestId>;
  private sealed?: string;

  constructor(
    readonly name: StreamName,
    readonly session: SessionRef,
    /** The owner's generation: 0, then one more per takeover. */
    readonly gen: number,
    /** Written to the shared log (request streams); the GET stream's notifications are not. */
    readonly persist: boolean,
    /** The request as the client sent it, for a POST of one request: what another instance needs to take it over. */
    readonly request: JsonValue | undefined,
    /** Set when this instance took the stream's call over from another: the call as the shared state had it. */
    readonly takeover: CallRow | undefined,
    private readonly seal: (name: StreamName) => string,
  ) {
    this.open = new Set(name.requestIds);
  }

  get key(): string {
    return this.name.key;
  }

  /** The sealed token of this stream's event ids, made at the first event. */
  get token(): string {
    return (this.sealed ??= this.seal(this.name));
  }

  /** The position of the next event. */
  next(): Position {
    return { gen: this.gen, seq: ++this.seq };
  }
}

/** The id of a JSON-RPC response (a result or an error), else undefined. */
export function responseId(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  if (m.method !== undefined || !("result" in m || "error" in m)) return undefined;
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
}
