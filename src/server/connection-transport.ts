import type { Authorization } from "../protocol/authorization";
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { isPlainObject } from "../protocol/plain-object";
import type { JsonObject } from "../protocol/wire-types";
import { errorResponse } from "./error-response";
import type { FastLane, LaneRequest } from "./fast-lane";
import { echoedId, isRequest, type InboundChecks } from "./inbound-checks";

const SHUTTING_DOWN = { code: -32000, message: "Service unavailable: the server is shutting down; send the request again once it is back" };

function isCancellation(message: JSONRPCMessage): message is JSONRPCMessage & { params: { requestId: unknown } } {
  const m = message as { method?: unknown; params?: unknown };
  return m.method === "notifications/cancelled" && isPlainObject(m.params);
}

/** A transport that can write one pre-serialized JSON-RPC message as a line (stdio). */
export interface LineWriter {
  sendLine(json: string): Promise<void>;
}

/** The fast lane on one connection, and the principal of its requests. */
export interface ConnectionLane {
  readonly lane: FastLane;
  readonly principal: string | null;
  readonly authorization?: Authorization;
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
  private readonly inflight = new Map<string | number, JsonObject>();
  /** Outcomes the lane dispatched and leaves to the SDK path to encode, by request id. */
  private readonly settled = new Map<string | number, Promise<JsonObject>>();
  /** Requests the lane is answering, each with the controller a cancellation aborts. */
  private readonly laneInflight = new Map<string | number, AbortController>();
  /**
   * Whether the SDK has pinned this connection to the modern era: the lane answers nothing before
   * (the first modern request pins the connection, and the SDK must see it), nor ever on a
   * connection pinned to 2025.
   */
  private era: "unpinned" | "modern" | "legacy" = "unpinned";
  /** Ids of the requests not answered yet, on either path: what a drain waits for. */
  private readonly open = new Set<string | number>();
  /** Set once a drain begins: new requests are refused. */
  private draining = false;
  private changed?: () => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    checks: InboundChecks,
    private readonly lane?: ConnectionLane,
  ) {
    inner.onclose = () => {
      // Nothing more can be answered: a drain has nothing left to wait for.
      this.open.clear();
      this.changed?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const rejection = checks.value(message) ?? checks.message(message) ?? checks.connection(message);
      if (rejection) {
        inner.send(errorResponse(rejection, echoedId(message)) as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      if (isRequest(message)) {
        if (this.draining) {
          inner.send(errorResponse(SHUTTING_DOWN, message.id) as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
          return;
        }
        this.open.add(message.id);
      } else if (isCancellation(message)) {
        // A cancelled request gets no answer: the drain does not wait for one.
        this.settle(message.params.requestId);
      }
      if (this.lane !== undefined && this.takeByLane(this.lane, message)) return;
      if (isRequest(message) && message.params && typeof message.params === "object")
        this.inflight.set(message.id, message.params as JsonObject);
      this.onmessage?.(message, extra);
    };
  }

  /** True when the lane took the message (answering it itself, or settling it for the SDK path to encode). */
  private takeByLane(connection: ConnectionLane, message: JSONRPCMessage): boolean {
    const m = message as { id?: string | number; method?: unknown; params?: unknown };
    if (m.method === "notifications/cancelled" && isPlainObject(m.params)) {
      const requestId = m.params.requestId as string | number;
      this.laneInflight.get(requestId)?.abort(m.params.reason);
      return false;
    }
    if (!isRequest(message)) return false;
    const taken = connection.lane.admit(message);
    if (this.era !== "modern") {
      if (this.era === "unpinned") {
        const meta = isPlainObject(message.params) ? message.params._meta : undefined;
        if (taken !== undefined) this.era = "modern";
        else if (!isPlainObject(meta) || !(PROTOCOL_VERSION_META_KEY in meta)) this.era = "legacy";
      }
      return false;
    }
    if (taken === undefined || this.laneInflight.has(taken.id) || this.inflight.has(taken.id)) return false;
    void this.answerByLane(connection, taken, message);
    return true;
  }

  private async answerByLane(connection: ConnectionLane, taken: LaneRequest, message: JSONRPCMessage): Promise<void> {
    const controller = new AbortController();
    this.laneInflight.set(taken.id, controller);
    let answer: Awaited<ReturnType<FastLane["answer"]>>;
    try {
      // The line transport parsed this message for this request alone: its params may be frozen in place.
      answer = await connection.lane.answer(taken, connection.principal, controller.signal, true, connection.authorization);
    } finally {
      this.laneInflight.delete(taken.id);
    }
    // A cancelled request gets no response (as the SDK path: nothing is written once it aborted).
    if (controller.signal.aborted) return this.settle(taken.id);
    if (answer.kind === "render") {
      this.inflight.set(taken.id, taken.params);
      this.settled.set(taken.id, answer.outcome);
      answer.outcome.catch(() => undefined);
      this.onmessage?.(message);
      return;
    }
    await (this.inner as unknown as LineWriter).sendLine(answer.text).catch((error: unknown) => this.onerror?.(error as Error));
    this.settle(taken.id);
  }

  /** The outcome the lane settled for the in-flight request with this id, for the SDK path to encode. */
  precomputed(id: string | number): Promise<JsonObject> | undefined {
    return this.settled.get(id);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Params of the in-flight request with this id, as received. */
  rawParams(id: string | number): JsonObject | undefined {
    return this.inflight.get(id);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: unknown };
    if (m.id !== undefined && m.method === undefined) {
      this.inflight.delete(m.id);
      this.settled.delete(m.id);
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
    if (this.open.delete(id as string | number)) this.changed?.();
  }

  close(): Promise<void> {
    this.inflight.clear();
    this.settled.clear();
    for (const controller of this.laneInflight.values()) controller.abort();
    return this.inner.close();
  }
}
