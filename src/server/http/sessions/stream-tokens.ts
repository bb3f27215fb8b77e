import { createHash } from "node:crypto";
import type { JsonValue } from "../../../protocol/canonical-json";
import type { StateSealer } from "../../../state/state-sealer";

/** A request id as JSON-RPC has it. */
export type RequestId = string | number;

/** One 2025 session, as its streams name it. */
export interface SessionRef {
  /** The session id the client sends (a sealed token). */
  readonly id: string;
  /** A digest of the id: the key of what the session's instances share. */
  readonly key: string;
  readonly principal: string | null;
}

/** What an event id names beside its position: the stream, the instance that began it, its requests. */
export interface StreamName {
  readonly key: string;
  readonly tag: string;
  readonly requestIds: readonly RequestId[];
}

/** Where an event sits in its stream: the owner's generation (one more per takeover), then its number. */
export interface Position {
  readonly gen: number;
  readonly seq: number;
}

/** A parsed `Last-Event-ID`. */
export interface ParsedEventId extends Position {
  readonly token: string;
  readonly name: StreamName;
}

const SEPARATOR = "~";
const BINDING_METHOD = "roundtrip-mcp/2025-stream";
// A Last-Event-ID travels in a header: long request ids are left out of the token, which then names none.
const MAX_ID_CHARS = 256;

export function sessionRef(id: string, principal: string | null): SessionRef {
  return { id, key: createHash("sha256").update(id).digest("base64url"), principal };
}

/** True when `a` comes after `b`. */
export function after(a: Position, b: Position): boolean {
  return a.gen > b.gen || (a.gen === b.gen && a.seq > b.seq);
}

/**
 * The event ids of 2025 sessions' streams, which any instance sharing the key ring reads: a token
 * sealed like the session id (bound to the session and its principal) naming the stream, the
 * instance that began it and its request ids, then the event's position in plain text
 * (`<token>~<gen>~<seq>`). The position is the client's own business: moving it only replays
 * more or less of its own stream. One seal per stream, one open per resumption.
 */
export class StreamTokens {
  private readonly seconds: number;

  constructor(
    private readonly sealer: StateSealer,
    lifetimeMs: number,
  ) {
    this.seconds = Math.ceil(lifetimeMs / 1000);
  }

  seal(name: StreamName, session: SessionRef): string {
    const ids = name.requestIds.filter((id) => String(id).length <= MAX_ID_CHARS);
    return this.sealer.sealLongLived([name.key, name.tag, ids as JsonValue[]], binding(session), session.principal, this.seconds);
  }

  eventId(token: string, position: Position): string {
    return `${token}${SEPARATOR}${position.gen}${SEPARATOR}${position.seq}`;
  }

  /** The stream and position a `Last-Event-ID` names, if it is one of this session's; undefined otherwise. */
  parse(eventId: string, session: SessionRef): ParsedEventId | undefined {
    const parts = eventId.split(SEPARATOR);
    if (parts.length !== 3) return undefined;
    const [token, gen, seq] = parts as [string, string, string];
    if (!/^(0|[1-9][0-9]{0,8})$/.test(gen) || !/^(0|[1-9][0-9]{0,8})$/.test(seq)) return undefined;
    let data: JsonValue;
    try {
      data = this.sealer.openLongLived(token, binding(session), session.principal, this.seconds);
    } catch {
      return undefined;
    }
    if (!Array.isArray(data) || data.length !== 3) return undefined;
    const [key, tag, requestIds] = data;
    if (typeof key !== "string" || typeof tag !== "string" || !Array.isArray(requestIds)) return undefined;
    const ids = requestIds.filter((id): id is RequestId => typeof id === "string" || typeof id === "number");
    return { token, name: { key, tag, requestIds: ids }, gen: Number(gen), seq: Number(seq) };
  }
}

function binding(session: SessionRef) {
  return { requestMethod: BINDING_METHOD, requestParams: { session: session.key } };
}
