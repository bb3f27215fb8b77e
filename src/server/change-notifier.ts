import { randomUUID } from "node:crypto";
import type { AppLogger } from "../protocol/app-logger";
import { isPlainObject } from "../protocol/plain-object";
import type { MessageBus } from "../stores/message-bus";

/** The publish side of one serving entry's `subscriptions/listen` bus (the SDK handler's `notify`). */
export interface ChangeTarget {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * Announces changes to every open `subscriptions/listen` stream of the app: list changes and
 * updates of one resource. Each stream only receives the kinds it asked for (the SDK filters and
 * tags them with the subscription id). Calling it with no stream open does nothing.
 *
 * Every `McpApp` registers its own instance in its container, so application code reaches it by
 * injection, without a reference to the app; `app.changes` is the same instance.
 *
 * The app shares it over its bus (`McpAppOptions.bus`): a change announced on one instance
 * reaches the streams open on every instance of the app on that bus (2026 `subscriptions/listen`
 * streams and 2025 sessions' GET streams alike). This instance's streams get it at once, whatever
 * the bus does; when the bus is down the other instances miss it, and the failure is logged.
 *
 * @example
 * @injectable() class Admin {
 *   constructor(private readonly changes: ChangeNotifier) {}
 *   @Tool() enable_beta() { this.changes.toolsChanged(); return "ok"; }
 * }
 */
/** One change, as it travels between instances. */
type Change = { readonly kind: "tools" | "prompts" | "resources" } | { readonly kind: "resource"; readonly uri: string };

interface Share {
  readonly bus: MessageBus;
  readonly channel: string;
  readonly logger: Pick<AppLogger, "warn" | "info">;
  /** A failed publish was logged; stay quiet until one succeeds. */
  failing: boolean;
}

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

export class ChangeNotifier {
  private readonly targets = new Set<ChangeTarget>();
  private readonly shares = new Set<Share>();
  /** Tells this notifier's own announcements apart when the bus brings them back. */
  private readonly origin = randomUUID();

  /** `notifications/tools/list_changed` to streams that asked for `toolsListChanged`. */
  toolsChanged(): void {
    this.announce({ kind: "tools" });
  }

  /** `notifications/prompts/list_changed` to streams that asked for `promptsListChanged`. */
  promptsChanged(): void {
    this.announce({ kind: "prompts" });
  }

  /** `notifications/resources/list_changed` to streams that asked for `resourcesListChanged`. */
  resourcesChanged(): void {
    this.announce({ kind: "resources" });
  }

  /** `notifications/resources/updated` to streams subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    this.announce({ kind: "resource", uri });
  }

  /**
   * Adds a serving entry's bus; returns the function that removes it again. Used by `McpApp`
   * for each HTTP handler it creates.
   */
  attach(target: ChangeTarget): () => void {
    this.targets.add(target);
    return () => void this.targets.delete(target);
  }

  /**
   * Carries every change announced here to the notifiers of the other instances on `bus`
   * (`channel` names the app), and theirs to this one's targets; returns the function that stops.
   * Used by `McpApp` with its bus. A subscription the bus refuses (the database is away at start)
   * is tried again with backoff (1 s doubling to 30 s) until it holds or sharing stops.
   */
  share(bus: MessageBus, channel: string, logger: Pick<AppLogger, "warn" | "info">): () => Promise<void> {
    const share: Share = { bus, channel, logger, failing: false };
    this.shares.add(share);
    let stopped = false;
    let unsubscribe: (() => Promise<void>) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const subscribe = (delayMs: number): void => {
      bus
        .subscribe(channel, (message) => this.received(message))
        .then(
          (end) => {
            if (stopped) return void end().catch(() => undefined);
            unsubscribe = end;
            if (delayMs > RETRY_MIN_MS) logger.info("change notifications are shared over the bus again", { channel });
          },
          (error: unknown) => {
            if (stopped) return;
            if (delayMs === RETRY_MIN_MS)
              logger.warn("could not subscribe to change notifications on the bus; retrying with backoff", {
                channel,
                error: String(error),
              });
            timer = setTimeout(() => subscribe(Math.min(delayMs * 2, RETRY_MAX_MS)), delayMs);
            timer.unref();
          },
        );
    };
    subscribe(RETRY_MIN_MS);
    return async () => {
      stopped = true;
      clearTimeout(timer);
      this.shares.delete(share);
      await unsubscribe?.().catch(() => undefined);
    };
  }

  private announce(change: Change): void {
    this.deliver(change);
    for (const share of this.shares)
      share.bus.publish(share.channel, { ...change, from: this.origin }).then(
        () => (share.failing = false),
        (error: unknown) => {
          if (!share.failing)
            share.logger.warn("a change notification did not reach the other instances: the bus refused it", {
              kind: change.kind,
              error: String(error),
            });
          share.failing = true;
        },
      );
  }

  /** A change from another instance; anything else on the channel is ignored. */
  private received(message: unknown): void {
    if (!isPlainObject(message) || message.from === this.origin || typeof message.from !== "string") return;
    const { kind, uri } = message;
    if (kind === "tools" || kind === "prompts" || kind === "resources") this.deliver({ kind });
    else if (kind === "resource" && typeof uri === "string") this.deliver({ kind, uri });
  }

  private deliver(change: Change): void {
    for (const t of this.targets) {
      if (change.kind === "tools") t.toolsChanged();
      else if (change.kind === "prompts") t.promptsChanged();
      else if (change.kind === "resource") t.resourceUpdated(change.uri);
      else t.resourcesChanged();
    }
  }
}
