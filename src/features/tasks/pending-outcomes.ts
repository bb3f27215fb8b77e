import type { AppLogger } from "../../protocol/app-logger";
import { stopReasonOf } from "./task-stop";

/** How many finished outcomes, and how many bytes of them, an instance keeps while its store cannot take them. */
export interface PendingOutcomeLimits {
  /** Outcomes kept at once: 1000. */
  readonly maxOutcomes: number;
  /** Bytes of their JSON (UTF-8) together: 64 MiB. */
  readonly maxBytes: number;
}

export const DEFAULT_PENDING_OUTCOME_LIMITS: PendingOutcomeLimits = Object.freeze({ maxOutcomes: 1000, maxBytes: 64 * 1024 * 1024 });

/** The wait before the first retry and the longest wait between two, in ms. */
export interface Backoff {
  readonly firstMs: number;
  readonly maxMs: number;
}

const DEFAULT_BACKOFF: Backoff = Object.freeze({ firstMs: 100, maxMs: 5000 });

interface Pending {
  readonly taskId: string;
  readonly bytes: number;
  readonly write: () => Promise<unknown>;
  delayMs: number;
  tries: number;
  timer?: NodeJS.Timeout;
  writing?: Promise<void>;
}

/**
 * Finished outcomes (a result or an error) the store could not take when the method ended, kept in
 * memory and written again with backoff until the store takes them, or until the task moved on
 * without them (it ended meanwhile: cancelled, or failed by recovery elsewhere; or another claim took
 * it over; or it expired): then they are dropped, as a late result must be. Bounded by count and
 * bytes: an outcome beyond the bounds is not kept (the task is then recovered when its lease lapses,
 * as before). Everything it does is logged.
 */
export class PendingOutcomes {
  private readonly pending = new Map<string, Pending>();
  private bytes = 0;
  private closed = false;

  constructor(
    private readonly limits: PendingOutcomeLimits,
    private readonly logger: AppLogger,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {}

  /** Outcomes kept now. */
  get size(): number {
    return this.pending.size;
  }

  /** Bytes of the outcomes kept now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Keeps an outcome `write` could not store; false (and logged) when it does not fit the bounds. */
  hold(taskId: string, bytes: number, write: () => Promise<unknown>, cause: unknown): boolean {
    // A later attempt at the same task (this instance took it over) supersedes an earlier one's outcome.
    const earlier = this.pending.get(taskId);
    if (earlier) this.forget(earlier);
    if (this.closed || this.pending.size >= this.limits.maxOutcomes || this.bytes + bytes > this.limits.maxBytes) {
      this.logger.error(
        "task outcome could not be written and is not kept (the in-memory buffer is full); the task is recovered when its lease lapses",
        {
          taskId,
          error: describe(cause),
          kept: this.pending.size,
          keptBytes: this.bytes,
          ...this.limits,
        },
      );
      return false;
    }
    const entry: Pending = { taskId, bytes, write, delayMs: this.backoff.firstMs, tries: 1 };
    this.pending.set(taskId, entry);
    this.bytes += bytes;
    this.logger.warn("task outcome could not be written; kept in memory and retried until the store takes it", {
      taskId,
      error: describe(cause),
      bytes,
    });
    this.schedule(entry);
    return true;
  }

  /** Tries every kept outcome now (before recovery fails tasks whose lease lapsed, so a kept result wins). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].map((entry) => this.attempt(entry)));
  }

  /** One last try for each; what still cannot be written is dropped, and the log says which. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      this.logger.error("task outcome dropped at shutdown: the store never took it; the task is recovered when its lease lapses", {
        taskId: entry.taskId,
        tries: entry.tries,
      });
    }
    this.pending.clear();
    this.bytes = 0;
  }

  private schedule(entry: Pending): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.attempt(entry), entry.delayMs);
    entry.timer.unref();
  }

  private attempt(entry: Pending): Promise<void> {
    entry.writing ??= this.write(entry).finally(() => (entry.writing = undefined));
    return entry.writing;
  }

  private async write(entry: Pending): Promise<void> {
    if (this.pending.get(entry.taskId) !== entry) return;
    clearTimeout(entry.timer);
    entry.tries++;
    try {
      await entry.write();
      this.forget(entry);
      this.logger.info("task outcome kept in memory was written", { taskId: entry.taskId, tries: entry.tries });
    } catch (error) {
      if (stopReasonOf(error) !== undefined) {
        this.forget(entry);
        this.logger.warn("task outcome kept in memory was dropped: the task moved on without it", {
          taskId: entry.taskId,
          tries: entry.tries,
          error: describe(error),
        });
      } else if ((error as { code?: string } | null)?.code === "store-unavailable" && !this.closed) {
        entry.delayMs = Math.min(entry.delayMs * 2, this.backoff.maxMs);
        this.schedule(entry);
      } else {
        this.forget(entry);
        this.logger.error("task outcome kept in memory could not be written; the task is recovered when its lease lapses", {
          taskId: entry.taskId,
          tries: entry.tries,
          error: describe(error),
        });
      }
    }
  }

  private forget(entry: Pending): void {
    clearTimeout(entry.timer);
    if (this.pending.get(entry.taskId) !== entry) return;
    this.pending.delete(entry.taskId);
    this.bytes -= entry.bytes;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
