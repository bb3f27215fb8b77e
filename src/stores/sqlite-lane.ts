import { performance } from "node:perf_hooks";

/** The busy timeout of the store's connection: the longest one try blocks the event loop on a lock. */
export const LOCK_PROBE_MS = 2;

/** The longest pause between two tries of locked work (the pauses double from 2 ms up to it, with jitter). */
const MAX_BACKOFF_MS = 25;

/** How long one turn runs queued work before it lets other events in. */
const TURN_MS = 10;

/** True for the extended result codes of a lock another connection holds (SQLITE_BUSY_*, SQLITE_LOCKED_*). */
export function isLockError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

interface Pending {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly queuedAt: number;
  tries: number;
}

/**
 * Runs a connection's synchronous SQLite work in order, one piece at a time, without holding the
 * event loop while another connection holds a lock: each try waits at most LOCK_PROBE_MS (the
 * connection's busy timeout), and work that found the database locked is tried again on a timer
 * with backoff until `waitMs` after it was queued, then fails with `timedOut`. Only the head
 * tries: the work behind it needs the same lock, so it waits without trying, and however many
 * requests wait, the event loop pays one short try per pause.
 */
export class SqliteLane {
  private readonly queue: Pending[] = [];
  private timer?: NodeJS.Timeout;
  private turn?: NodeJS.Immediate;
  private closedWith?: Error;

  constructor(
    private readonly waitMs: number,
    private readonly timedOut: (lockError: unknown, waitedMs: number) => Error,
  ) {}

  /** Runs `work` now if nothing is queued, else after what is; a lock error is waited out, any other error rejects. */
  run<T>(work: () => T): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject, queuedAt: performance.now(), tries: 0 });
      if (this.queue.length === 1) this.drain();
    });
  }

  /** Rejects everything queued with `error`, and anything run later. */
  close(error: Error): void {
    this.closedWith = error;
    clearTimeout(this.timer);
    if (this.turn) clearImmediate(this.turn);
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }

  private drain(): void {
    this.timer = undefined;
    this.turn = undefined;
    const started = performance.now();
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      try {
        const value = head.work();
        this.queue.shift();
        head.resolve(value);
      } catch (error) {
        if (isLockError(error) && this.waitFor(head, error)) return;
        if (this.queue[0] === head) {
          this.queue.shift();
          head.reject(error);
        }
      }
      if (this.queue.length > 0 && performance.now() - started >= TURN_MS) {
        this.turn = setImmediate(() => this.drain());
        return;
      }
    }
  }

  /**
   * The head found the database locked: true if a retry is scheduled; false when its time is up,
   * in which case it and every queued piece whose time is up too failed with `timedOut`.
   */
  private waitFor(head: Pending, lockError: unknown): boolean {
    const now = performance.now();
    const left = head.queuedAt + this.waitMs - now;
    if (left > 0) {
      head.tries++;
      const backoff = Math.min(MAX_BACKOFF_MS, 2 ** head.tries) * (0.5 + Math.random() / 2);
      this.timer = setTimeout(() => this.drain(), Math.min(left, backoff));
      return true;
    }
    // Queued later with the same wait, the others' time is up no sooner than the head's.
    while (this.queue.length > 0 && this.queue[0]!.queuedAt + this.waitMs <= now) {
      const expired = this.queue.shift()!;
      expired.reject(this.timedOut(lockError, now - expired.queuedAt));
    }
    return false;
  }
}
