import type { Authorization } from "../../protocol/authorization";
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from "../request/sdk-module";
import { OnDemandCancellation } from "../../protocol/cancellation";
import { isPlainObject } from "../../protocol/plain-object";
import { errorResponse } from "../checks/error-response";
import type { FastLane, LaneRequest } from "../lane/fast-lane";
import type { TransportFacts } from "../request/transport-facts";
import { StdioLineTransport } from "./stdio-line-transport";
import type { OpeningDiscover } from "./opening-discover";
import { IdTable } from "../request/id-table";
import { echoedId, isRequest, MODERN_PROTOCOL_VERSION, type InboundChecks } from "../checks/inbound-checks";

/** The id of the request that pins the SDK's entry to the modern era (see `ConnectionTransport.prepareSdk`). */
const ERA_PIN_ID = "roundtrip-mcp/era-pin";

/**
 * What pins the SDK's entry to the modern era when the lane answered the connection's first
 * modern request: an enveloped request (so of the modern era) of a method no instance serves,
 * which the pinned instance answers -32601; `send` drops that answer.
 */
function eraPin(): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id: ERA_PIN_ID,
    method: ERA_PIN_ID,
    params: { _meta: { [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION, [CLIENT_CAPABILITIES_META_KEY]: {} } },
  };
}

const SHUTTING_DOWN = { code: -32000, message: "Service unavailable: the server is shutting down; send the request again once it is back" };

function isCancellation(message: JSONRPCMessage): message is JSONRPCMessage & { params: { requestId: unknown } } {
  const m = message as { method?: unknown; params?: unknown };
  return m.method === "notifications/cancelled" && isPlainObject(m.params);
}

/** What a connection knows of every request on it. */
export interface ConnectionOptions {
  /** The principal of every request on this connection. */
  readonly principal: string | null;
  /** What every request on this connection is authorized for (`serve({ authorization })`). */
  readonly authorization?: Authorization;
  /** The fast lane, on a transport that writes lines (stdio). */
  readonly lane?: FastLane;
  /** Answers an opening `server/discover` before anything reaches the SDK (with the lane, on stdio). */
  readonly opening?: OpeningDiscover;
  /**
   * Attaches the SDK's connection entry (which sets `onmessage`), called before the first message
   * it must see when it was not attached yet; `opened` after the opening answer was written.
   */
  readonly attach?: () => void;
  readonly opened?: () => void;
  /** Called with every message received (before anything is done with it) and every request answered: the warm-up waits for quiet. */
  readonly activity?: () => void;
}

/**
 * Wraps a connection-style transport (stdio, in-memory, any transport given to `serve`) for two
 * per-request duties the SDK's connection entry leaves to us:
 * - it runs the inbound checks every connection passes (structural limits, a valid JSON-RPC
 *   message, a known protocol version), answering a refused message itself: the SDK would drop
 *   an invalid one silently and leave the client waiting;
 * - it keeps each in-flight request's params as received, keyed by JSON-RPC id, until its response
 *   is sent: the SDK lifts retry fields out of params before handlers run (and drops malformed ones
 *   silently), and the dispatcher needs them raw to refuse a malformed retry envelope with -32602.
 */
export class ConnectionTransport implements Transport {
  /** The transport facts of each request in flight on the SDK path (raw params, what the lane settled), by id. */
  private readonly inflight = new IdTable<TransportFacts>();
  /** The facts every request on this connection shares. */
  private readonly base: TransportFacts;
  /** Requests the lane is answering, each with the cancellation a `notifications/cancelled` cancels. */
  private readonly laneInflight = new IdTable<OnDemandCancellation>();
  /**
   * The era of this connection: pinned modern by the first request the lane takes, legacy by a
   * first request without an envelope claim. The lane answers nothing on a connection pinned to
   * 2025, nor while unpinned once the SDK's entry has seen a message (that entry pins its own
   * era on the first request it sees, so the lane leaves it the first modern request); when the
   * entry has seen nothing, the lane answers the first request too and `prepareSdk` pins the entry.
   */
  private era: "unpinned" | "modern" | "legacy" = "unpinned";
  /** Whether the SDK's entry was handed a message (it pins its era on the first request). */
  private sdkFed = false;
  /** The lane pinned the connection to the modern era before the SDK's entry saw anything: `prepareSdk` pins the entry. */
  private pinPending = false;
  /** The era pin was handed to the SDK's entry and its answer not sent yet. */
  private pinAnswerPending = false;
  /** Ids of the requests not answered yet, on either path: what a drain waits for. */
  private readonly open = new IdTable<true>();
  /** Set once a drain begins: new requests are refused. */
  private draining = false;
  private changed?: () => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly lane: FastLane | undefined;
  /** Until a message goes to the SDK path: the opening `server/discover` is answered here. */
  private opening: OpeningDiscover | undefined;
  private started: Promise<void> | undefined;

  constructor(
    private readonly inner: Transport,
    checks: InboundChecks,
    options: ConnectionOptions,
  ) {
    this.lane = options.lane;
    this.opening = options.lane === undefined ? undefined : options.opening;
    // What a line transport hands on it parsed from a line it scanned, for this request alone.
    const ownBytes = inner instanceof StdioLineTransport;
    this.base = {
      transport: ownBytes ? "stdio" : "connection",
      principal: options.principal,
      ...(options.authorization !== undefined && { authorization: options.authorization }),
      ownBytes,
    };
    inner.onclose = () => {
      // Nothing more can be answered: a drain has nothing left to wait for.
      this.open.clear();
      this.changed?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    const activity = (this.activity = options.activity);
    inner.onmessage = (message, extra) => {
      activity?.();
      if (this.opening !== undefined && !this.draining && this.answerOpening(this.opening, message)) return;
      const rejection = checks.run("stream", { message, facts: this.base });
      if (rejection) {
        inner.send(errorResponse(rejection, echoedId(message)) as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      if (isRequest(message)) {
        if (this.draining) {
          inner.send(errorResponse(SHUTTING_DOWN, message.id) as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
          return;
        }
        this.open.set(message.id, true);
      } else if (isCancellation(message)) {
        // A cancelled request gets no answer: the drain does not wait for one.
        this.settle(message.params.requestId);
      }
      if (this.lane !== undefined && this.takeByLane(this.lane, message)) return;
      if (isRequest(message) && isPlainObject(message.params)) this.inflight.set(message.id, { ...this.base, rawParams: message.params });
      this.toSdk(message, extra);
    };
    this.attach = options.attach;
    this.opened = options.opened;
  }

  private readonly attach: (() => void) | undefined;
  private readonly activity: (() => void) | undefined;
  private readonly opened: (() => void) | undefined;

  /** Hands a message to the SDK's connection entry, attaching it first if it was not yet. */
  private toSdk(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.opening = undefined;
    this.prepareSdk();
    this.sdkFed = true;
    this.onmessage?.(message, extra);
  }

  /**
   * Attaches the SDK's entry if it was not yet, and pins it to the modern era when the lane
   * answered the connection's first modern request: the entry pins an era on the first request
   * it sees, so it is handed one first (an enveloped request of a method nothing serves, whose
   * answer `send` drops). Called before the first message the entry must see, and by the warm-up.
   */
  prepareSdk(): void {
    if (this.onmessage === undefined) this.attach?.();
    if (!this.pinPending || this.onmessage === undefined) return;
    this.pinPending = false;
    this.sdkFed = true;
    this.pinAnswerPending = true;
    this.onmessage(eraPin());
  }

  /**
   * True when `message` is an opening `server/discover` answered here (the SDK has seen nothing
   * yet, so it stays in its opening state, as after answering a discover itself: the next request
   * pins the era). The stream checks are known to pass for what `OpeningDiscover.take` accepts.
   */
  private answerOpening(opening: OpeningDiscover, message: JSONRPCMessage): boolean {
    const line = opening.take(message);
    const inner = this.inner;
    if (line === undefined || !(inner instanceof StdioLineTransport)) return false;
    const id = (message as { id: string | number }).id;
    this.open.set(id, true);
    void inner
      .sendLine(line)
      .catch((error: unknown) => this.onerror?.(error as Error))
      .finally(() => (this.settle(id), this.opened?.()));
    return true;
  }

  /** True when the lane took the message (answering it itself, or settling it for the SDK path to encode). */
  private takeByLane(lane: FastLane, message: JSONRPCMessage): boolean {
    const m = message as { id?: string | number; method?: unknown; params?: unknown };
    if (m.method === "notifications/cancelled" && isPlainObject(m.params)) {
      const requestId = m.params.requestId as string | number;
      this.laneInflight.get(requestId)?.cancel(m.params.reason);
      return false;
    }
    if (!isRequest(message)) return false;
    const taken = lane.admit(message);
    if (this.era === "unpinned") {
      if (taken === undefined) {
        const meta = isPlainObject(message.params) ? message.params._meta : undefined;
        if (!isPlainObject(meta) || !(PROTOCOL_VERSION_META_KEY in meta)) this.era = "legacy";
        return false;
      }
      this.era = "modern";
      // The SDK's entry has seen nothing yet (a stdio server may not even have loaded the SDK): the
      // lane answers this request too, and the entry is pinned before it is handed anything (`prepareSdk`).
      if (this.sdkFed) return false;
      this.pinPending = true;
      this.opening = undefined;
    } else if (this.era === "legacy") return false;
    if (taken === undefined || this.laneInflight.has(taken.id) || this.inflight.has(taken.id)) return false;
    void this.answerByLane(lane, taken, message);
    return true;
  }

  private async answerByLane(lane: FastLane, taken: LaneRequest, message: JSONRPCMessage): Promise<void> {
    const cancellation = new OnDemandCancellation();
    this.laneInflight.set(taken.id, cancellation);
    let answer: Awaited<ReturnType<FastLane["answer"]>>;
    try {
      // The line transport parsed this message for this request alone: its params may be frozen in place.
      answer = await lane.answer(taken, this.base, cancellation);
    } finally {
      this.laneInflight.delete(taken.id);
    }
    // A cancelled request gets no response (as the SDK path: nothing is written once it aborted).
    if (cancellation.cancelled) return this.settle(taken.id);
    if (answer.kind === "settled") {
      this.inflight.set(taken.id, { ...this.base, rawParams: taken.params, settled: answer.settled });
      answer.settled.catch(() => undefined);
      this.toSdk(message);
      return;
    }
    // The lane runs only on a line transport (see the constructor's caller): it writes the bytes as one line.
    const inner = this.inner;
    if (inner instanceof StdioLineTransport) await inner.sendLine(answer.text).catch((error: unknown) => this.onerror?.(error as Error));
    this.settle(taken.id);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The transport facts of the in-flight request with this id. */
  facts(id: string | number): TransportFacts {
    return this.inflight.get(id) ?? this.base;
  }

  /** Starts the inner transport once (the connection starts it before the SDK's entry, which starts it again, is attached). */
  start(): Promise<void> {
    return (this.started ??= this.inner.start());
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: unknown };
    // The answer to the entry's era pin was asked by no client. The pin is the first request the
    // entry is handed and is answered at once (no instance serves its method): the first answer
    // with its id is the pin's, even if a client sends a request with that id later.
    if (this.pinAnswerPending && m.id === ERA_PIN_ID && m.method === undefined) {
      this.pinAnswerPending = false;
      return;
    }
    if (m.id !== undefined && m.method === undefined) {
      this.inflight.delete(m.id);
      try {
        return await this.inner.send(message, options);
      } finally {
        this.settle(m.id);
      }
    }
    return this.inner.send(message, options);
  }

  /**
   * Stops taking requests (each new one is answered -32000, "shutting down", with its id) and
   * resolves once every request in flight was answered or cancelled, or after `deadlineMs`: the
   * requests in flight then, and how many were still open at the end.
   */
  drain(deadlineMs: number): Promise<{ inFlight: number; unfinished: number }> {
    this.draining = true;
    const inFlight = this.open.size;
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.changed = undefined;
        resolve({ inFlight, unfinished: this.open.size });
      };
      const timer = setTimeout(finish, deadlineMs);
      this.changed = () => void (this.open.size === 0 && finish());
      this.changed();
    });
  }

  private settle(id: unknown): void {
    this.activity?.();
    if (this.open.delete(id as string | number)) this.changed?.();
  }

  close(): Promise<void> {
    this.inflight.clear();
    for (const cancellation of this.laneInflight.values()) cancellation.cancel();
    return this.inner.close();
  }
}
