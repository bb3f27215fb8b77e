import { RowTaskStore, type TaskStoreOptions } from "./row-task-store";
import { type BatchSelection, type ChangedRow, type RowAt, type TaskRow, isActive, isAbandoned, isClaimable, isExpired } from "./task-row";
import { type NewTask, type RowChange, checkCreationKey, checkPrincipalCounts } from "./task-transitions";

export interface MemoryTaskStoreOptions extends TaskStoreOptions {
  /** The clock in milliseconds since the epoch (default `Date.now`); inject it in tests. */
  readonly clock?: () => number;
}

/**
 * Tasks in this process's memory: for tests and single-process tools that may lose their
 * tasks on restart. Every operation is atomic (it runs to completion within one turn).
 */
export class MemoryTaskStore extends RowTaskStore {
  readonly kind = "memory";
  private readonly rows = new Map<string, TaskRow>();
  private readonly clock: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    super(options);
    this.clock = options.clock ?? Date.now;
  }

  protected async readRow(taskId: string): Promise<RowAt | undefined> {
    const row = this.rows.get(taskId);
    return row && { row, now: this.clock() };
  }

  protected async changeRow(taskId: string, change: RowChange): Promise<ChangedRow | undefined> {
    const now = this.clock();
    const row = this.rows.get(taskId);
    if (!row) return undefined;
    const next = change(row, now);
    if (next) this.rows.set(taskId, next);
    return { row: next ?? row, now, changed: next !== undefined };
  }

  protected async insertRow(task: NewTask): Promise<TaskRow> {
    const now = this.clock();
    if (task.creationKey !== null) {
      const holder = [...this.rows.values()].find((row) => row.creation_key === task.creationKey);
      if (holder && checkCreationKey(holder, now)) this.rows.set(holder.id, { ...holder, creation_key: null });
    }
    let total = 0;
    let active = 0;
    for (const row of this.rows.values()) {
      if (row.principal !== task.principal || isExpired(row, now)) continue;
      total++;
      if (isActive(row)) active++;
    }
    checkPrincipalCounts({ total, active }, this.limits, task.principal);
    const row = task.build(now);
    this.rows.set(row.id, row);
    return row;
  }

  protected async changeBatch(selection: BatchSelection, limit: number, change: RowChange): Promise<RowAt[]> {
    const now = this.clock();
    const wanted = selection === "claimable" ? isClaimable : isAbandoned;
    const candidates = [...this.rows.values()].filter((row) => wanted(row, now)).sort((a, b) => a.lease_expires_at - b.lease_expires_at);
    const changed: RowAt[] = [];
    for (const row of candidates.slice(0, limit)) {
      const next = change(row, now);
      if (!next) continue;
      this.rows.set(row.id, next);
      changed.push({ row: next, now });
    }
    return changed;
  }

  protected async deleteExpired(limit: number): Promise<number> {
    const now = this.clock();
    let deleted = 0;
    for (const [id, row] of this.rows) {
      if (deleted >= limit) break;
      if (!isExpired(row, now)) continue;
      this.rows.delete(id);
      this.watchers.deliver(id, undefined);
      deleted++;
    }
    return deleted;
  }

  protected async startChangeFeed(): Promise<void> {
    // Every change goes through this handle, which delivers it.
  }

  protected stopChangeFeed(): void {}

  protected async closeStore(): Promise<void> {
    this.rows.clear();
  }
}
