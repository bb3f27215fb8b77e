import type { TaskListener } from "./task-record";
import { type RowAt, type TaskRow, isExpired, rowToRecord } from "./task-row";
import type { StoreLogger } from "./task-store";

interface WatchEntry {
  readonly taskId: string;
  readonly principal: string | null;
  readonly listener: TaskListener;
  /** The revision last told; -1 before the first. */
  lastRevision: number;
  /** Told undefined (the task is gone): told nothing more. */
  gone: boolean;
  /** Closed by its watch: told nothing, not even what is already queued. */
  closed: boolean;
}

/**
 * The listeners of one store handle, by task. Stores feed it every state they learn of, from
 * their own writes or from other handles (polling, LISTEN/NOTIFY); it tells each listener a state
 * once, in revision order, on a microtask (never inside the store's transaction).
 */
export class TaskWatchers {
  private readonly byTask = new Map<string, Set<WatchEntry>>();

  constructor(private readonly logger: StoreLogger) {}

  get size(): number {
    return this.byTask.size;
  }

  /** The ids with at least one listener. */
  taskIds(): string[] {
    return [...this.byTask.keys()];
  }

  add(taskId: string, principal: string | null, listener: TaskListener): WatchEntry {
    const entry: WatchEntry = { taskId, principal, listener, lastRevision: -1, gone: false, closed: false };
    let set = this.byTask.get(taskId);
    if (!set) this.byTask.set(taskId, (set = new Set()));
    set.add(entry);
    return entry;
  }

  remove(entry: WatchEntry): void {
    entry.closed = true;
    const set = this.byTask.get(entry.taskId);
    if (!set) return;
    set.delete(entry);
    if (set.size === 0) this.byTask.delete(entry.taskId);
  }

  /** True if some listener of the task has not been told `revision` yet. */
  wants(taskId: string, revision: number): boolean {
    for (const entry of this.byTask.get(taskId) ?? []) if (!entry.gone && entry.lastRevision < revision) return true;
    return false;
  }

  /** Tells the task's listeners its state as read at the store's clock (`undefined`: it is gone). */
  deliver(taskId: string, at: RowAt | undefined): void {
    const set = this.byTask.get(taskId);
    if (!set) return;
    const row = at?.row;
    for (const entry of set) {
      if (entry.gone) continue;
      if (row === undefined || row.principal !== entry.principal || isExpired(row, at!.now)) {
        entry.gone = true;
        this.tell(entry, undefined);
      } else if (row.revision > entry.lastRevision) {
        entry.lastRevision = row.revision;
        this.tell(entry, row);
      }
    }
  }

  clear(): void {
    for (const set of this.byTask.values()) for (const entry of set) entry.closed = true;
    this.byTask.clear();
  }

  private tell(entry: WatchEntry, row: TaskRow | undefined): void {
    const revision = row?.revision;
    queueMicrotask(() => {
      // close(), or a later state queued meanwhile, supersedes this one.
      if (entry.closed || (revision !== undefined && revision < entry.lastRevision)) return;
      try {
        entry.listener(row === undefined ? undefined : rowToRecord(row));
      } catch (error) {
        this.logger.warn("A task watcher threw", { taskId: entry.taskId, error: error instanceof Error ? error.message : String(error) });
      }
    });
  }
}
