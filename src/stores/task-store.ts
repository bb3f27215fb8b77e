import type { JsonValue } from "./json-value";
import type { JsonObject } from "../protocol/wire-types";
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

/**
 * Per-principal limits every store enforces. The anonymous scope (principal null: every caller
 * without an authenticator) is one scope shared by all of them, with limits of its own.
 */
export interface TaskLimits {
  /** Unexpired tasks one principal may hold, terminal ones included. */
  readonly maxTasksPerPrincipal: number;
  /** Unexpired `working` or `input_required` tasks one principal may hold (finished ones never count). */
  readonly maxActiveTasksPerPrincipal: number;
  /** Unexpired tasks the anonymous scope may hold, all anonymous callers together. */
  readonly maxAnonymousTasks: number;
  /** Unexpired `working` or `input_required` tasks the anonymous scope may hold, all anonymous callers together. */
  readonly maxActiveAnonymousTasks: number;
  /** Bytes of JSON (UTF-8) for a task's input, and again for all its answers together. */
  readonly maxInputBytes: number;
}

/**
 * The defaults: 10,000 tasks and 100 active per principal; 50,000 tasks and 500 active for the
 * anonymous scope that every unauthenticated caller shares; 256 KiB of input per task.
 */
export const DEFAULT_TASK_LIMITS: TaskLimits = Object.freeze({
  maxTasksPerPrincipal: 10_000,
  maxActiveTasksPerPrincipal: 100,
  maxAnonymousTasks: 50_000,
  maxActiveAnonymousTasks: 500,
  maxInputBytes: 256 * 1024,
});

/** Where a store reports what it cannot throw (a listener that threw, a lost database connection). */
export interface StoreLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Durable tasks behind one contract: memory, SQLite and PostgreSQL behave the same, and one
 * contract test suite runs against each.
 *
 * - Client operations (`get`, `recordAnswers`, `cancel`) are scoped by principal: an unknown,
 *   expired or other principal's task is `undefined`, all alike.
 * - Worker operations are fenced by the lease the worker holds: they throw
 *   `TaskFinishedError` once the task ended, `StaleLeaseError` once another claim took it over,
 *   `TaskNotFoundError` once it expired.
 * - Every time is the store's clock: the database's for PostgreSQL.
 */
export interface TaskStore {
  readonly kind: "memory" | "sqlite" | "postgres";
  readonly limits: TaskLimits;

  /**
   * Creates a `working` task, born claimed by its creator (attempt 1, lease generation 1).
   * Throws `TaskLimitError` when the principal is at a limit or the input is too large, and
   * `TaskExistsError` (carrying that task, before any limit is checked) when `creationKey` is
   * given and an unexpired task of the same principal already has it.
   */
  create(input: CreateTaskInput): Promise<ClaimedTask>;

  /** The task, if it exists, has not expired and belongs to `principal`. */
  get(taskId: string, principal: string | null): Promise<TaskRecord | undefined>;

  /**
   * Records a client's answers: keys outstanding are accepted, others ignored (unknown,
   * already answered); when nothing is outstanding any more the task is `working` again.
   * A terminal task is left as it is. Throws `TaskLimitError` when the answers together would
   * exceed `maxInputBytes`.
   */
  recordAnswers(taskId: string, principal: string | null, responses: JsonObject): Promise<TaskRecord | undefined>;

  /**
   * Ends an unfinished task `cancelled` at once (its worker learns it through `watch`, and its
   * later writes throw `TaskFinishedError`); a terminal task is left as it is.
   */
  cancel(taskId: string, principal: string | null): Promise<TaskRecord | undefined>;

  /** Sets or clears the status message and progress. */
  reportProgress(taskId: string, lease: LeaseRef, update: ProgressUpdate): Promise<TaskRecord>;

  /**
   * Asks for input: appends the requests (key to request) to the outstanding ones and moves the
   * task to `input_required`. Throws `InputKeyReusedError` if any key was ever used before.
   * `statusMessage`, when given, replaces the message until the last answer arrives.
   */
  requestInput(taskId: string, lease: LeaseRef, requests: JsonObject, options?: { statusMessage?: string }): Promise<TaskRecord>;

  /** Ends the task `completed` with its result; the lease ends with it. */
  complete(taskId: string, lease: LeaseRef, result: JsonValue): Promise<TaskRecord>;

  /** Ends the task `failed` with a protocol error; the lease ends with it. */
  fail(taskId: string, lease: LeaseRef, error: TaskError): Promise<TaskRecord>;

  /**
   * Takes one task whose lease has lapsed, if its retry policy lets it run again: a new lease,
   * the next attempt. Undefined when the task is held, finished, gone or not to be rerun.
   */
  claim(taskId: string, owner: string, leaseMs: number): Promise<ClaimedTask | undefined>;

  /**
   * Takes the task whose lease lapsed first among those that may run again, or undefined.
   * Concurrent callers never get the same task (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
   */
  claimNext(owner: string, leaseMs: number): Promise<ClaimedTask | undefined>;

  /** Extends the lease to now + leaseMs; throws like a write when the lease is lost. */
  renewLease(taskId: string, lease: LeaseRef, leaseMs: number): Promise<TaskLease>;

  /**
   * Gives the lease up now (false when it was not held): a rerun task becomes claimable at
   * once, a `fail` one is failed by the next `failAbandoned`.
   */
  releaseLease(taskId: string, lease: LeaseRef): Promise<boolean>;

  /**
   * Ends `failed` (code -32603, `data.reason` "worker-lost") up to `limit` (default 100)
   * unfinished tasks whose lease lapsed and that may not run again (policy `fail`, or no
   * attempts left). Returns their ids.
   */
  failAbandoned(options?: { limit?: number }): Promise<string[]>;

  /** Deletes up to `limit` (default 500) expired tasks; returns how many. */
  reapExpired(options?: { limit?: number }): Promise<number>;

  /**
   * Tells `listener` the task's current state, then each later one, whichever handle or
   * process on the same database made the change, within a second (memory: at once; SQLite:
   * polling `PRAGMA data_version` every 100 ms; PostgreSQL: LISTEN/NOTIFY, polling while
   * reconnecting). States are coalesced (one may be skipped, none repeats, none goes back) and
   * told on a microtask after the change committed. Undefined, told once, means the task is gone
   * for `principal`: unknown, another principal's, or expired (told at the latest when it is
   * reaped). Resolves once delivery is set up, so nothing committed after that is missed.
   */
  watch(taskId: string, principal: string | null, listener: TaskListener): Promise<TaskWatch>;

  /**
   * Resolves when the store answers a read now, rejects (`TaskStoreUnavailableError`) when it
   * cannot: one cheap read, bounded like every other (readiness probes call it).
   */
  ping(): Promise<void>;

  /** Stops watchers and closes what the store opened (not a pool it was given). */
  close(): Promise<void>;
}
