import type { JsonValue } from "./json-value";
import type { JsonObject } from "../protocol/wire-types";
import { randomId } from "./random-id";
import type {
  ClaimedTask,
  CreateTaskInput,
  LeaseRef,
  ProgressUpdate,
  TaskError,
  TaskLease,
  TaskListener,
  TaskRecord,
  TaskWatch,
} from "./task-record";
import { type BatchSelection, type ChangedRow, type RowAt, type TaskRow, isExpired, rowToRecord } from "./task-row";
import { DEFAULT_TASK_LIMITS, type StoreLogger, type TaskLimits, type TaskStore } from "./task-store";
import { TaskNotFoundError } from "./task-store-errors";
import {
  type NewTask,
  type RowChange,
  abandonChange,
  answerChange,
  cancelChange,
  checkBatchLimit,
  claimChange,
  completeChange,
  failChange,
  prepareCreate,
  progressChange,
  releaseChange,
  renewChange,
  requestInputChange,
} from "./task-transitions";
import { TaskWatchers } from "./task-watchers";

/** What every store accepts. */
export interface TaskStoreOptions {
  /** Per-principal limits; unset (or `undefined`) fields keep DEFAULT_TASK_LIMITS; any other name is a TypeError. */
  readonly limits?: Partial<TaskLimits>;
  /** Where warnings go (a watcher that threw, a lost connection); default `process.emitWarning`. */
  readonly logger?: StoreLogger;
}

const warningLogger: StoreLogger = {
  warn: (message, fields) => process.emitWarning(fields ? `${message} ${JSON.stringify(fields)}` : message, "TaskStoreWarning"),
};

const LIMIT_NAMES = Object.keys(DEFAULT_TASK_LIMITS) as (keyof TaskLimits)[];

/**
 * The store's limits: each given one checked, each unset (absent or `undefined`) one its default.
 * A name that is not a limit is refused rather than ignored: a misspelt limit would otherwise
 * leave its default in force without a word.
 */
function checkLimits(limits: Partial<TaskLimits> | undefined): TaskLimits {
  if (limits === undefined) return DEFAULT_TASK_LIMITS;
  if (typeof limits !== "object" || limits === null || Array.isArray(limits)) {
    throw new TypeError(
      `limits must be an object of ${LIMIT_NAMES.join(", ")}, got ${Array.isArray(limits) ? "an array" : String(limits)}`,
    );
  }
  for (const name of Object.keys(limits)) {
    if (!(LIMIT_NAMES as string[]).includes(name)) {
      throw new TypeError(`limits.${name} is not a task limit; the limits are ${LIMIT_NAMES.join(", ")}`);
    }
  }
  const merged = { ...DEFAULT_TASK_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value: unknown = limits[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `limits.${name} must be a positive integer, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`,
      );
    }
    merged[name] = value;
  }
  return Object.freeze(merged);
}

/**
 * The contract, built once on five row primitives each store supplies with its own atomicity
 * (see task-transitions.ts for the rules). It also owns watchers and delivers every change this
 * handle makes; stores add the changes other handles make.
 */
export abstract class RowTaskStore implements TaskStore {
  abstract readonly kind: TaskStore["kind"];
  readonly limits: TaskLimits;
  protected readonly logger: StoreLogger;
  /** @internal */
  protected readonly watchers: TaskWatchers;

  constructor(options: TaskStoreOptions = {}) {
    this.limits = checkLimits(options.limits);
    this.logger = options.logger ?? warningLogger;
    this.watchers = new TaskWatchers(this.logger);
  }

  /** The row (expired or not) and the store's clock; undefined if there is no such row. */
  protected abstract readRow(taskId: string): Promise<RowAt | undefined>;
  /** Atomically applies `change` to the row; undefined if there is no such row. */
  protected abstract changeRow(taskId: string, change: RowChange): Promise<ChangedRow | undefined>;
  /**
   * Atomically counts the principal's unexpired tasks (all, and active), refuses with
   * `checkPrincipalCounts`, then inserts `task.build(now)`.
   */
  protected abstract insertRow(task: NewTask): Promise<TaskRow>;
  /** Atomically applies `change` to up to `limit` rows of the selection, oldest lapsed lease first; returns the changed rows. */
  protected abstract changeBatch(selection: BatchSelection, limit: number, change: RowChange): Promise<RowAt[]>;
  /** Deletes up to `limit` expired rows; returns how many. */
  protected abstract deleteExpired(limit: number): Promise<number>;
  /** Starts learning of other handles' changes (called before the first watch reads). */
  protected abstract startChangeFeed(): Promise<void>;
  /** No watcher left. */
  protected abstract stopChangeFeed(): void;
  /** Releases the store's resources. */
  protected abstract closeStore(): Promise<void>;

  async create(input: CreateTaskInput): Promise<ClaimedTask> {
    const task = prepareCreate(input, this.limits);
    const row = await this.insertRow(task);
    return { task: rowToRecord(row), lease: leaseOf(row) };
  }

  async get(taskId: string, principal: string | null): Promise<TaskRecord | undefined> {
    const read = await this.readRow(taskId);
    return read && visibleTo(read.row, principal, read.now) ? rowToRecord(read.row) : undefined;
  }

  async recordAnswers(taskId: string, principal: string | null, responses: JsonObject): Promise<TaskRecord | undefined> {
    return this.clientChange(taskId, principal, answerChange(responses, this.limits));
  }

  async cancel(taskId: string, principal: string | null): Promise<TaskRecord | undefined> {
    return this.clientChange(taskId, principal, cancelChange);
  }

  async reportProgress(taskId: string, lease: LeaseRef, update: ProgressUpdate): Promise<TaskRecord> {
    return rowToRecord(await this.workerChange(taskId, progressChange(lease, update)));
  }

  async requestInput(taskId: string, lease: LeaseRef, requests: JsonObject, options?: { statusMessage?: string }): Promise<TaskRecord> {
    return rowToRecord(await this.workerChange(taskId, requestInputChange(lease, requests, options?.statusMessage)));
  }

  async complete(taskId: string, lease: LeaseRef, result: JsonValue): Promise<TaskRecord> {
    return rowToRecord(await this.workerChange(taskId, completeChange(lease, result)));
  }

  async fail(taskId: string, lease: LeaseRef, error: TaskError): Promise<TaskRecord> {
    return rowToRecord(await this.workerChange(taskId, failChange(lease, error)));
  }

  async claim(taskId: string, owner: string, leaseMs: number): Promise<ClaimedTask | undefined> {
    const token = randomId();
    const claimed = await this.changeRow(taskId, claimChange(owner, leaseMs, token));
    if (!claimed?.changed) return undefined;
    this.watchers.deliver(taskId, claimed); // told only when the claim cleared the message (a new revision)
    return { task: rowToRecord(claimed.row), lease: leaseOf(claimed.row) };
  }

  async claimNext(owner: string, leaseMs: number): Promise<ClaimedTask | undefined> {
    const [claimed] = await this.changeBatch("claimable", 1, claimChange(owner, leaseMs, randomId()));
    if (claimed) this.watchers.deliver(claimed.row.id, claimed);
    return claimed && { task: rowToRecord(claimed.row), lease: leaseOf(claimed.row) };
  }

  async renewLease(taskId: string, lease: LeaseRef, leaseMs: number): Promise<TaskLease> {
    return leaseOf(await this.workerChange(taskId, renewChange(lease, leaseMs)));
  }

  async releaseLease(taskId: string, lease: LeaseRef): Promise<boolean> {
    const released = await this.changeRow(taskId, releaseChange(lease));
    return released !== undefined && released.changed && !isExpired(released.row, released.now);
  }

  async failAbandoned(options?: { limit?: number }): Promise<string[]> {
    const failed = await this.changeBatch("abandoned", checkBatchLimit(options?.limit, 100), abandonChange);
    for (const at of failed) this.watchers.deliver(at.row.id, at);
    return failed.map(({ row }) => row.id);
  }

  async reapExpired(options?: { limit?: number }): Promise<number> {
    return this.deleteExpired(checkBatchLimit(options?.limit, 500));
  }

  async watch(taskId: string, principal: string | null, listener: TaskListener): Promise<TaskWatch> {
    await this.startChangeFeed();
    // Registered before the first read, so a change landing during the read is not lost.
    const entry = this.watchers.add(taskId, principal, listener);
    try {
      const read = await this.readRow(taskId);
      this.watchers.deliver(taskId, read);
    } catch (error) {
      this.unwatch(entry);
      throw error;
    }
    return { close: () => this.unwatch(entry) };
  }

  async ping(): Promise<void> {
    // A read of an id no task has: the same path, bounds and errors as every read, no row returned.
    await this.readRow("");
  }

  async close(): Promise<void> {
    this.watchers.clear();
    this.stopChangeFeed();
    await this.closeStore();
  }

  private unwatch(entry: Parameters<TaskWatchers["remove"]>[0]): void {
    this.watchers.remove(entry);
    if (this.watchers.size === 0) this.stopChangeFeed();
  }

  /** A client's change: an invisible task (unknown, expired, another principal's) is undefined. */
  private async clientChange(taskId: string, principal: string | null, change: RowChange): Promise<TaskRecord | undefined> {
    const after = await this.changeRow(taskId, (current, at) => (visibleTo(current, principal, at) ? change(current, at) : undefined));
    if (!after || !visibleTo(after.row, principal, after.now)) return undefined;
    if (after.changed) this.watchers.deliver(taskId, after);
    return rowToRecord(after.row);
  }

  /** A worker's change: an unknown or expired task throws TaskNotFoundError. */
  private async workerChange(taskId: string, change: RowChange): Promise<TaskRow> {
    const after = await this.changeRow(taskId, (current, at) => {
      if (isExpired(current, at)) throw new TaskNotFoundError(taskId);
      return change(current, at);
    });
    if (!after) throw new TaskNotFoundError(taskId);
    if (after.changed) this.watchers.deliver(taskId, after);
    return after.row;
  }
}

function visibleTo(row: TaskRow, principal: string | null, now: number): boolean {
  return row.principal === principal && !isExpired(row, now);
}

function leaseOf(row: TaskRow): TaskLease {
  return {
    owner: row.lease_owner,
    token: row.lease_token,
    generation: row.attempt,
    expiresAt: new Date(row.lease_expires_at).toISOString(),
  };
}
