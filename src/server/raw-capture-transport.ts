import type { JSONRPCMessage, Transport, TransportSendOptions, MessageExtraInfo } from "@modelcontextprotocol/server";
import type { JsonObject } from "../dispatch/wire-types";

/**
 * Wraps a connection-style transport (stdio, in-memory) and keeps each in-flight request's params as
 * received, keyed by JSON-RPC id, until its response is sent. The SDK lifts retry fields out of
 * params before handlers run (and drops malformed ones silently); the dispatcher needs them raw to
 * refuse a malformed retry envelope with -32602.
 */
export class RawCaptureTransport implements Transport {
  private readonly inflight = new Map<string | number, JsonObject>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const m = message as { id?: string | number; method?: unknown; params?: unknown };
      if (m.id !== undefined && typeof m.method === "string" && m.params && typeof m.params === "object") {
        this.inflight.set(m.id, m.params as JsonObject);
      }
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
