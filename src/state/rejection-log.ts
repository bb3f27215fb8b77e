import type { AppLogger } from "../protocol/app-logger";

/** How long repeated rejections of one reason are counted before their summary is logged. */
export const REJECTION_LOG_INTERVAL_MS = 60_000;

/**
 * The log of refused `requestState` tokens, bounded at warn level whatever a client sends: in
 * each interval the first rejection of each reason is a warning, in full (`warn("requestState
 * rejected", { reason, method })`); the next ones of that reason go to debug (same message and
 * fields, for a logger that asked for every event) and are counted, and the counts are one warning
 * when the interval ends: `warn("requestState rejections suppressed", { counts: { "bad-mac":
 * 99999 }, intervalMs })`. 100,000 forged tokens write a handful of warnings, not 100,000.
 */
export class RejectionLog {
  private windowStart: number | undefined;
  private readonly seen = new Set<string>();
  private readonly suppressed = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly logger: AppLogger,
    /** Milliseconds since the epoch (the sealer's clock). */
    private readonly now: () => number,
    private readonly intervalMs: number = REJECTION_LOG_INTERVAL_MS,
  ) {}

  record(reason: string, fields: Record<string, unknown>): void {
    const now = this.now();
    if (this.windowStart === undefined || now - this.windowStart >= this.intervalMs || now < this.windowStart) {
      this.flush();
      this.windowStart = now;
      this.seen.clear();
    }
    if (!this.seen.has(reason)) {
      this.seen.add(reason);
      this.logger.warn("requestState rejected", { reason, ...fields });
      return;
    }
    this.logger.debug("requestState rejected", { reason, ...fields });
    this.suppressed.set(reason, (this.suppressed.get(reason) ?? 0) + 1);
    // Nothing may arrive to close the interval: a timer logs the counts when it ends.
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowStart + this.intervalMs - now));
      this.timer.unref?.();
    }
  }

  /** Logs the counts of the rejections not logged one by one, if any. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.suppressed.size === 0) return;
    this.logger.warn("requestState rejections suppressed", { counts: Object.fromEntries(this.suppressed), intervalMs: this.intervalMs });
    this.suppressed.clear();
  }
}
