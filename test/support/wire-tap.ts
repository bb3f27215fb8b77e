// A client-side transport wrapper that records every message and validates each server message
// against the official schema of the revision the connection speaks (results by the method of the
// request they answer): 2026-07-28 until an initialize answer names a 2025 revision, that
// revision's schema after it (legacy-wire-schema.ts). Violations are collected, not thrown, so a
// test can assert on all of them at once. It wraps the transports of both official clients.
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { LEGACY_REVISIONS, validateLegacyServerMessage, type LegacyRevision } from "./legacy-wire-schema";
import { validateServerMessage } from "./wire-schema";

export class WireTap implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];
  readonly violations: string[] = [];
  /** Validate every server message against its revision's schema. */
  validate = true;
  /** The 2025 revision an initialize answer negotiated; undefined while the connection speaks 2026-07-28. */
  revision: LegacyRevision | undefined;
  /** What the client declared in the initialize it sent (a URL question to 2025-06-18 needs elicitation.url). */
  private declared: Record<string, unknown> = {};
  private readonly methods = new Map<string | number, string>();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  /** `asks`: the 2025 revision an initialize sent through the tap asks for (the client's own otherwise). */
  constructor(
    private readonly inner: Transport,
    private readonly asks?: LegacyRevision,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      this.received.push(message);
      const m = message as { id?: string | number; method?: string; result?: { protocolVersion?: unknown } };
      const answered = m.id !== undefined && m.method === undefined ? this.methods.get(m.id) : undefined;
      if (answered === "initialize" && LEGACY_REVISIONS.includes(m.result?.protocolVersion as LegacyRevision))
        this.revision = m.result!.protocolVersion as LegacyRevision;
      if (this.validate) {
        try {
          if (this.revision === undefined) validateServerMessage(message, answered);
          else validateLegacyServerMessage(message, this.revision, answered, this.declared);
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
    const initialize = message as { method?: string; params?: Record<string, unknown> };
    if (this.asks !== undefined && initialize.method === "initialize")
      message = { ...message, params: { ...initialize.params, protocolVersion: this.asks } } as JSONRPCMessage;
    this.sent.push(message);
    const m = message as { id?: string | number; method?: string; params?: { capabilities?: Record<string, unknown> } };
    if (m.method === "initialize") this.declared = m.params?.capabilities ?? {};
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
