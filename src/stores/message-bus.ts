import type { JsonValue } from "./json-value";
import { MemorySessionState } from "./memory-session-state";
import { provideSessionState, type SessionStateStore } from "./session-state";

/** What a subscriber receives: one message published on a channel it listens to, by any instance. */
export type BusHandler = (message: JsonValue) => void;

/**
 * A publish/subscribe channel shared by every instance of one deployment: the answer a client
 * POSTs to instance B reaches the round waiting on instance A, and a change announced on one
 * instance reaches the open streams of all of them. In memory for one process
 * (`MemoryMessageBus`); over PostgreSQL LISTEN/NOTIFY for many.
 *
 * Delivery is at most once and only to subscribers open when the message is published: a bus
 * carries wake-ups, never the only copy of anything that must not be lost.
 */
export interface MessageBus {
  /**
   * Sends `message` to every subscriber of `channel` on every instance, this one included.
   * Rejects with `TaskStoreUnavailableError` when the shared medium is unreachable; never throws
   * synchronously.
   */
  publish(channel: string, message: JsonValue): Promise<void>;
  /**
   * Calls `handler` for each message published on `channel` from now on. Resolves, once the
   * subscription is in place, to the function that ends it. A handler that throws is logged and
   * does not stop delivery to others.
   */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** False while the shared medium is unreachable (readiness follows it); true again after recovery. */
  readonly healthy: boolean;
  /** Ends every subscription and releases the connection. Idempotent. */
  close(): Promise<void>;
}

/** The bus of one process: each message is delivered on a microtask after `publish`; healthy until closed. */
export class MemoryMessageBus implements MessageBus {
  private readonly channels = new Map<string, Set<BusHandler>>();
  private closed = false;

  constructor(private readonly onHandlerError: (error: unknown) => void = () => undefined) {
    // Every app on this bus shares the 2025 sessions' state through it, as over a database.
    let state: SessionStateStore | undefined;
    provideSessionState(this, () => (state ??= new MemorySessionState(true)));
  }

  get healthy(): boolean {
    return !this.closed;
  }

  publish(channel: string, message: JsonValue): Promise<void> {
    if (this.closed) return Promise.reject(new Error("MemoryMessageBus.publish: the bus is closed"));
    const handlers = this.channels.get(channel);
    if (handlers === undefined) return Promise.resolve();
    // A copy, so a handler that subscribes or unsubscribes does not change this delivery.
    const targets = [...handlers];
    return Promise.resolve().then(() => {
      for (const handler of targets) {
        try {
          handler(message);
        } catch (error) {
          this.onHandlerError(error);
        }
      }
    });
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    if (this.closed) return Promise.reject(new Error("MemoryMessageBus.subscribe: the bus is closed"));
    let handlers = this.channels.get(channel);
    if (handlers === undefined) this.channels.set(channel, (handlers = new Set()));
    // Each subscription is its own entry, so one handler subscribed twice is called twice.
    const entry: BusHandler = (message) => handler(message);
    handlers.add(entry);
    return Promise.resolve(async () => {
      const current = this.channels.get(channel);
      if (current === undefined) return;
      current.delete(entry);
      if (current.size === 0) this.channels.delete(channel);
    });
  }

  close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    return Promise.resolve();
  }
}
