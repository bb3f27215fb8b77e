// Wraps the official client's transport and keeps the last raw result of each request, so the
// demo can check what was on the wire (the client normalises results: it drops resultType on
// complete ones and fills in an empty inputRequests on state-only ones).
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";

export type RawResult = Record<string, unknown>;

export class WireRecorder implements Transport {
  private readonly pending = new Map<string | number, string>();
  private readonly results = new Map<string, RawResult | { error: unknown }>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const m = message as { id?: string | number; method?: string; result?: RawResult; error?: unknown };
      if (m.id !== undefined && m.method === undefined) {
        const method = this.pending.get(m.id);
        if (method !== undefined) {
          this.pending.delete(m.id);
          this.results.set(method, m.result ?? { error: m.error });
        }
      }
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: string };
    if (m.id !== undefined && m.method !== undefined) this.pending.set(m.id, m.method);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The raw result of the last request of this method (requests of one method are sequential here). */
  lastResult(method: string): RawResult | { error: unknown } | undefined {
    return this.results.get(method);
  }
}
