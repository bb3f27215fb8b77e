// A client-side transport wrapper that records every message and validates each server message
// against the official 2026-07-28 schema (results by the method of the request they answer).
// Violations are collected, not thrown, so a test can assert on all of them at once.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { validateServerMessage } from "./wire-schema";

export class WireTap implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];
  readonly violations: string[] = [];
  /** Validate against the 2026-07-28 schema (off for a 2025-era connection). */
  validate = true;
  private readonly methods = new Map<string | number, string>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      this.received.push(message);
      const m = message as { id?: string | number; method?: string };
      if (this.validate) {
        try {
          validateServerMessage(message, m.id !== undefined && m.method === undefined ? this.methods.get(m.id) : undefined);
        } catch (error) {
          this.violations.push((error as Error).message);
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

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push(message);
    const m = message as { id?: string | number; method?: string };
    if (m.id !== undefined && m.method !== undefined) this.methods.set(m.id, m.method);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The last result or error the server sent for a request of this method. */
  lastResponse(method: string): Record<string, unknown> | undefined {
    for (let i = this.received.length - 1; i >= 0; i--) {
      const m = this.received[i] as { id?: string | number; method?: string };
      if (m.id !== undefined && m.method === undefined && this.methods.get(m.id) === method) return m as Record<string, unknown>;
    }
    return undefined;
  }
}
