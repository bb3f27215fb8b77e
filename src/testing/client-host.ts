import type { McpApp } from "../server/mcp-app";
import type { BoundaryName, Channel, NotificationListener, StrayListener } from "./channel";
import type { TestClock } from "./test-clock";
import type { JsonRpcNotification } from "./wire-messages";

/** Who requests are made as: the boundary's own principal (undefined), or a chosen one. */
export type PrincipalChoice = { readonly principal: string | null; readonly scopes?: readonly string[] } | undefined;

/** What a boundary provides to the clients built on it. */
export interface HostSpec {
  readonly boundary: BoundaryName;
  readonly app?: McpApp;
  readonly clock?: TestClock;
  /** Why `clock` is absent, for the error a test sees when it asks for it. */
  readonly noClockReason?: string;
  readonly url?: string;
  readonly timeoutMs: number;
  /** Opens a channel whose requests carry `principal`. */
  open(principal: PrincipalChoice, listeners: { onNotification: NotificationListener; onStray: StrayListener }): Promise<Channel>;
  /** Throws, saying how to set it up, when this boundary cannot act as `principal`. */
  checkPrincipal(principal: string | null, scopes?: readonly string[]): void;
  /** Frees what the spec made besides channels (listeners, an app the kit built). */
  dispose(): Promise<void>;
}

/**
 * What every client derived from one `createTestClient` call shares: the boundary, one channel
 * per principal (opened on first use), the id counter, and the record of everything received
 * outside an exchange. Closing any client of the family closes them all.
 */
export class ClientHost {
  /** Every notification received, in order, on any channel. */
  readonly notifications: JsonRpcNotification[] = [];
  /** Messages no request was waiting for (server requests, stray responses, non-JSON output). */
  readonly unexpected: unknown[] = [];
  private readonly channels = new Map<string, Promise<Channel>>();
  private lastId = 0;
  private closed = false;

  constructor(readonly spec: HostSpec) {}

  channel(principal: PrincipalChoice): Promise<Channel> {
    if (this.closed) return Promise.reject(new Error("this test client is closed"));
    const key = principal === undefined ? "default" : JSON.stringify([principal.principal, principal.scopes ?? null]);
    let channel = this.channels.get(key);
    if (channel === undefined) {
      channel = this.spec.open(principal, {
        onNotification: (message) => this.notifications.push(message),
        onStray: (message) => this.unexpected.push(message),
      });
      this.channels.set(key, channel);
    }
    return channel;
  }

  nextId(): number {
    return ++this.lastId;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const channels = [...this.channels.values()];
    this.channels.clear();
    await Promise.all(channels.map((c) => c.then((channel) => channel.close()).catch(() => undefined)));
    await this.spec.dispose();
  }
}
