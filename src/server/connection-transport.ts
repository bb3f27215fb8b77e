import {
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/server";
import { ErrorCode } from "../protocol/errors";
import type { JsonObject } from "../protocol/wire-types";

/** The revision this framework serves per request (the SDK's exported LATEST is its 2025 default). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
const KNOWN_VERSIONS = new Set<string>([MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS]);

/**
 * Wraps a connection-style transport (stdio, in-memory) for two per-request duties the SDK's
 * connection entry leaves to us:
 * - it keeps each in-flight request's params as received, keyed by JSON-RPC id, until its response
 *   is sent: the SDK lifts retry fields out of params before handlers run (and drops malformed ones
 *   silently), and the dispatcher needs them raw to refuse a malformed retry envelope with -32602;
 * - it refuses a request claiming an unknown protocol version with -32022, as HTTP does. Once a
 *   connection is pinned to the modern era, `serveStdio` (SDK 2.4.0) serves later requests without
 *   re-checking their version, but each request stands alone (DIGEST §1.1, §1.5).
 */
export class ConnectionTransport implements Transport {
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
        const claimed = ((m.params as JsonObject)._meta as JsonObject | undefined)?.[PROTOCOL_VERSION_META_KEY];
        if (typeof claimed === "string" && !KNOWN_VERSIONS.has(claimed)) {
          void inner.send({
            jsonrpc: "2.0",
            id: m.id,
            error: {
              code: ErrorCode.UnsupportedProtocolVersion,
              message: `Unsupported protocol version: ${claimed}`,
              data: { supported: [MODERN_PROTOCOL_VERSION], requested: claimed },
            },
          } as JSONRPCMessage);
          return;
        }
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
