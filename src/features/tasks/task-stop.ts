import type { LeaseRef, ProgressUpdate } from "../../stores/task-record";
import type { TaskStore } from "../../stores/task-store";
import type { TaskStoreErrorCode } from "../../stores/task-store-errors";

/** Why an attempt stopped before its method finished. */
export type StopReason = "cancelled" | "ended" | "expired" | "taken-over" | "shutdown";

const MESSAGES: Record<StopReason, string> = {
  cancelled: "The task was cancelled",
  ended: "The task already ended",
  expired: "The task expired",
  "taken-over": "Another instance took the task over",
  shutdown: "The server is shutting down",
};

/** The reason of an aborted `TaskContext.signal`. */
export class TaskStopped extends Error {
  override readonly name = "TaskStopped";
  constructor(readonly reason: StopReason) {
    super(MESSAGES[reason]);
  }
}

/**
 * The store errors that mean "stop, quietly": the task ended (cancelled, or failed by recovery),
 * another claim took it over, or it expired. Store errors are told apart by code, not class.
 */
export function stopReasonOf(error: unknown): StopReason | undefined {
  const code = (error as { code?: TaskStoreErrorCode } | null)?.code;
  if (code === "task-finished") return (error as { status?: string }).status === "cancelled" ? "cancelled" : "ended";
  if (code === "stale-lease") return "taken-over";
  if (code === "task-not-found") return "expired";
  return undefined;
}

/**
 * A task's progress and status message, written one at a time: a report made while a write is
 * in flight is merged into the next one, so a tight loop of reports costs one write at a time.
 * A write that fails is handed to `failed` and never rejects.
 */
export class ProgressWriter {
  private pending?: ProgressUpdate;
  private flushing?: Promise<void>;

  constructor(
    private readonly store: TaskStore,
    private readonly taskId: string,
    private readonly lease: LeaseRef,
    private readonly failed: (error: unknown) => void,
  ) {}

  write(update: ProgressUpdate): Promise<void> {
    this.pending = { ...this.pending, ...update };
    this.flushing ??= this.flush();
    return this.flushing;
  }

  /** Resolves once nothing is pending or in flight. */
  async drain(): Promise<void> {
    await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.pending !== undefined) {
      const update = this.pending;
      this.pending = undefined;
      try {
        await this.store.reportProgress(this.taskId, this.lease, update);
      } catch (error) {
        this.failed(error);
        this.pending = undefined;
      }
    }
    this.flushing = undefined;
  }
}
