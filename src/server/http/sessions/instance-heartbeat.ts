import type { AppLogger } from "../../../protocol/app-logger";
import type { SessionStateStore } from "../../../stores/session-state";

/** How often the shared state's old events, calls, settings and dead instances are deleted. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Says in the shared state that this instance is alive, for `ttlMs` at a time, renewed every
 * quarter of it: an instance that stops renewing (killed, cut off from the database) has its
 * calls taken over by the next instance that needs them once `ttlMs` is over. Also sweeps what
 * outlived `lifetimeMs`. Started with the instance's first 2025 session; `stop` says the
 * instance is gone, so its calls may be taken over at once.
 */
export class InstanceHeartbeat {
  private beating?: NodeJS.Timeout;
  private sweeping?: NodeJS.Timeout;
  private failing = false;

  constructor(
    private readonly state: SessionStateStore,
    private readonly tag: string,
    private readonly ttlMs: number,
    private readonly lifetimeMs: number,
    private readonly logger: AppLogger,
  ) {}

  /** Begins beating (once). */
  start(): Promise<void> {
    if (this.beating !== undefined) return Promise.resolve();
    this.beating = setInterval(() => void this.beat(), Math.max(50, Math.floor(this.ttlMs / 4)));
    this.beating.unref();
    this.sweeping = setInterval(
      () =>
        void this.state
          .sweep(this.lifetimeMs)
          .catch((error: unknown) => this.logger.debug("2025 sessions: the shared state could not be swept", { error: String(error) })),
      SWEEP_EVERY_MS,
    );
    this.sweeping.unref();
    return this.beat();
  }

  async stop(): Promise<void> {
    clearInterval(this.beating);
    clearInterval(this.sweeping);
    if (this.beating === undefined) return;
    this.beating = undefined;
    await this.state.retire(this.tag).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    try {
      await this.state.beat(this.tag, this.ttlMs);
      if (this.failing) this.logger.info("2025 sessions: this instance's heartbeat is written again");
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn("2025 sessions: this instance's heartbeat could not be written; other instances may take its calls over", {
          error: error instanceof Error ? error.message : String(error),
        });
      this.failing = true;
    }
  }
}
