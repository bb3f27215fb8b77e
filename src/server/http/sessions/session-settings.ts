import type { AppLogger } from "../../../protocol/app-logger";
import type { LogLevel } from "../../../protocol/request-context";
import { isPlainObject } from "../../../protocol/plain-object";
import type { MessageBus } from "../../../stores/message-bus";
import type { SessionStateStore } from "../../../stores/session-state";
import type { SessionRef } from "./stream-tokens";

const SETTINGS_CHANNEL = "roundtrip-mcp/2025/settings";
const LEVELS = new Set<string>(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/** What a 2025 session set with `logging/setLevel` and `resources/subscribe`, as this instance holds it. */
export class LiveSettings {
  /** The session's log level; undefined: every message (no `logging/setLevel` yet). */
  level: LogLevel | undefined;
  readonly subscriptions = new Set<string>();

  constructor(
    readonly ref: SessionRef,
    private readonly share: SettingsShare,
  ) {}

  setLevel(level: LogLevel): Promise<void> {
    this.level = level;
    return this.share.save(this);
  }

  subscribe(uri: string): Promise<void> {
    this.subscriptions.add(uri);
    return this.share.save(this);
  }

  unsubscribe(uri: string): Promise<void> {
    this.subscriptions.delete(uri);
    return this.share.save(this);
  }

  /** Takes what the shared state holds. */
  apply(level: string | undefined, subscriptions: readonly string[]): void {
    this.level = level !== undefined && LEVELS.has(level) ? (level as LogLevel) : undefined;
    this.subscriptions.clear();
    for (const uri of subscriptions) this.subscriptions.add(uri);
  }
}

/**
 * Shares each 2025 session's settings between the instances serving it: a change is written to
 * the shared state, then announced on the bus so the instances holding the session read it again;
 * an instance that adopts a session reads them first. Without a shared state they stay with the
 * instance that took them.
 */
export class SettingsShare {
  private readonly subscribed?: Promise<(() => Promise<void>) | undefined>;

  constructor(
    private readonly state: SessionStateStore,
    private readonly bus: MessageBus,
    private readonly logger: AppLogger,
    private readonly lifetimeMs: number,
    /** The settings of this instance's sessions with that key. */
    private readonly held: (sessionKey: string) => LiveSettings | undefined,
  ) {
    if (!state.shared) return;
    this.subscribed = bus
      .subscribe(SETTINGS_CHANNEL, (message) => {
        if (isPlainObject(message) && typeof message.session === "string") {
          const live = this.held(message.session);
          if (live !== undefined) void this.load(live);
        }
      })
      .catch(() => undefined);
  }

  /** Reads what the session's instances set so far. */
  async load(live: LiveSettings): Promise<void> {
    if (!this.state.shared) return;
    const settings = await this.state.loadSettings(live.ref.key).catch(() => undefined);
    if (settings !== undefined) live.apply(settings.level, settings.subscriptions);
  }

  async save(live: LiveSettings): Promise<void> {
    if (!this.state.shared) return;
    try {
      const settings = { ...(live.level !== undefined && { level: live.level }), subscriptions: [...live.subscriptions] };
      await this.state.saveSettings(live.ref.key, settings, this.lifetimeMs);
      await this.bus.publish(SETTINGS_CHANNEL, { session: live.ref.key });
    } catch (error) {
      this.logger.warn("2025 sessions: a session's log level or subscriptions could not be shared; they apply on this instance", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  async drop(ref: SessionRef): Promise<void> {
    if (this.state.shared) await this.state.dropSettings(ref.key).catch(() => undefined);
  }

  async close(): Promise<void> {
    const off = await this.subscribed;
    await off?.().catch(() => undefined);
  }
}
