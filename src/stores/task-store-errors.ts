import type { TaskRecord, TaskStatus } from "./task-record";

/** Tells the store errors apart without `instanceof` (which breaks across duplicate installs). */
export type TaskStoreErrorCode =
  | "task-not-found"
  | "stale-lease"
  | "task-finished"
  | "input-key-reused"
  | "task-limit"
  | "task-exists"
  | "store-unavailable"
  | "store-config";

/** The base of every error a task store throws on purpose. */
export abstract class TaskStoreError extends Error {
  abstract readonly code: TaskStoreErrorCode;
  override get name(): string {
    return this.constructor.name;
  }
}

/** A worker wrote to a task that does not exist any more (expired, reaped). */
export class TaskNotFoundError extends TaskStoreError {
  readonly code = "task-not-found";
  constructor(readonly taskId: string) {
    super(`Task ${taskId} does not exist or has expired`);
  }
}

/** The writer's lease is not the task's current one: another claim took the task over. */
export class StaleLeaseError extends TaskStoreError {
  readonly code = "stale-lease";
  constructor(
    readonly taskId: string,
    readonly generation: number,
  ) {
    super(`The lease (generation ${generation}) on task ${taskId} was lost to a newer claim`);
  }
}

/**
 * The task already ended (completed, failed or cancelled): no write changes it any more, so a
 * late result never resurrects a cancelled task.
 */
export class TaskFinishedError extends TaskStoreError {
  readonly code = "task-finished";
  constructor(
    readonly taskId: string,
    readonly status: TaskStatus,
  ) {
    super(`Task ${taskId} already ended (${status})`);
  }
}

/** An input key this task already used: keys are unique for the task's whole life. */
export class InputKeyReusedError extends TaskStoreError {
  readonly code = "input-key-reused";
  constructor(
    readonly taskId: string,
    readonly keys: readonly string[],
  ) {
    super(`Task ${taskId} already used the input key(s) ${keys.map((k) => JSON.stringify(k)).join(", ")}`);
  }
}

/** Which documented limit a request hit. */
export type TaskLimitName = "tasksPerPrincipal" | "activeTasksPerPrincipal" | "anonymousTasks" | "activeAnonymousTasks" | "inputBytes";

/**
 * A per-principal limit refused the write. The runtime maps it to a client error; the message
 * names the limit and its value, never the input.
 */
export class TaskLimitError extends TaskStoreError {
  readonly code = "task-limit";
  constructor(
    readonly limit: TaskLimitName,
    readonly max: number,
  ) {
    super(
      limit === "anonymousTasks" || limit === "activeAnonymousTasks"
        ? `Task limit reached: ${limit} (${max}), shared by every caller without an identity`
        : `Task limit reached: ${limit} (${max})`,
    );
  }
}

/**
 * `create` was given a `creationKey` that a live (unexpired) task of the same principal already
 * has: that task is not created again, and `task` is the one that exists, as it is now.
 */
export class TaskExistsError extends TaskStoreError {
  readonly code = "task-exists";
  constructor(readonly task: TaskRecord) {
    super(`A task with this creation key already exists: ${task.id}`);
  }
}

/** The store could not be reached or used (database down, file locked too long, disk full). */
export class TaskStoreUnavailableError extends TaskStoreError {
  readonly code = "store-unavailable";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A store URL or option is wrong; the message says which and what is accepted. */
export class TaskStoreConfigError extends TaskStoreError {
  readonly code = "store-config";
}
