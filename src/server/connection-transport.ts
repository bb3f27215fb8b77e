import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import type { JsonObject } from "../protocol/wire-types";
import { errorResponse } from "./error-response";
import { echoedId, isRequest, type InboundChecks } from "./inbound-checks";

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
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    checks: InboundChecks,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const rejection = checks.value(message) ?? checks.message(message) ?? checks.connection(message);
      if (rejection) {
        inner.send(errorResponse(rejection, echoedId(message)) as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error as Error));
        return;
      }
      if (isRequest(message) && message.params && typeof message.params === "object") this.inflight.set(message.id, message.params as JsonObject);
      this.onmessage?.(message, extra);
    };
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
    if (m.id !== undefined && m.method === undefined) this.inflight.delete(m.id);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    this.inflight.clear();
    return this.inner.close();
  }
}
