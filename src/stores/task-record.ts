import type { JsonValue } from "./json-value";
import type { JsonObject } from "../protocol/wire-types";

/** The five statuses of the tasks extension; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/**
 * What happens when the worker running a task dies (its lease expires): `rerun` starts the
 * tool again (a new attempt, the same idempotency key) up to `maxAttempts` times; `fail` ends the
 * task `failed` with an error that says so.
 */
export type RetryPolicy = "rerun" | "fail";

/** The protocol error a `failed` task carries. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/** The last progress the worker reported (as in `notifications/progress`). */
export interface TaskProgress {
  readonly progress: number;
  readonly total?: number;
}

/**
 * A worker's fenced right to write a task, as `create`, `claim`, `claimNext` and `renewLease`
 * return it. The worker passes it back on every write; once another claim has taken the task
 * (a new generation) or the task has ended, the old lease writes nothing.
 */
export interface TaskLease {
  /** Who holds it: the runtime's instance id, for diagnostics. */
  readonly owner: string;
  /** A random secret naming this grant; only claims return it. */
  readonly token: string;
  /** Counts the grants on this task: equal to the task's `attempt` when it was granted. */
  readonly generation: number;
  /** When it lapses unless renewed (ISO 8601, by the store's clock). */
  readonly expiresAt: string;
}

/** What a worker's write is fenced by: the token and generation of its lease. */
export type LeaseRef = Pick<TaskLease, "token" | "generation">;

/** A task as the store keeps it. Every read returns a fresh copy. */
export interface TaskRecord {
  /** Unguessable: 128 random bits, base64url. */
  readonly id: string;
  /** The scope: only this principal sees the task (null: the anonymous scope). */
  readonly principal: string | null;
  readonly toolName: string;
  /** The resolved invocation input (arguments plus elicited answers), bounded by `maxInputBytes`. */
  readonly input: JsonValue;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly progress?: TaskProgress;
  /** ISO 8601 from the store's clock (the database's for PostgreSQL). */
  readonly createdAt: string;
  /** Changes with everything a client can see: status, message, progress, input, outcome. */
  readonly lastUpdatedAt: string;
  /** Positive integer, or null for a task that never expires. */
  readonly ttlMs: number | null;
  /** createdAt + ttlMs; from then on the task is unknown to every operation. */
  readonly expiresAt: string | null;
  readonly pollIntervalMs?: number;
  /** Set on `completed` only (may be JSON null). */
  readonly result?: JsonValue;
  /** Set on `failed` only. */
  readonly error?: TaskError;
  /** Outstanding input requests by key: a snapshot of everything not yet answered. */
  readonly inputRequests: JsonObject;
  /** Every answer accepted so far, by key, kept across attempts. */
  readonly inputResponses: JsonObject;
  /** Every input key this task ever used; a key is never asked twice. */
  readonly inputKeys: readonly string[];
  readonly retryPolicy: RetryPolicy;
  /** How many attempts `rerun` allows in all (1 for `fail`). */
  readonly maxAttempts: number;
  /** The attempt running now, from 1; each claim starts the next. */
  readonly attempt: number;
  /** Stable across attempts: give it to side effects that must happen once. */
  readonly idempotencyKey: string;
  /** The client's key the task was created with (`CreateTaskInput.creationKey`), if any. */
  readonly creationKey?: string;
  /** The latest lease, without its token; `expiresAt` in the past means nobody holds it. */
  readonly lease: Omit<TaskLease, "token">;
  /** Counts the changes `lastUpdatedAt` counts; watchers compare it. */
  readonly revision: number;
}

/** A task together with the lease its caller now holds on it. */
export interface ClaimedTask {
  readonly task: TaskRecord;
  readonly lease: TaskLease;
}

/** What `create` needs. */
export interface CreateTaskInput {
  readonly principal: string | null;
  readonly toolName: string;
  readonly input: JsonValue;
  /** Positive integer, or null for no expiry. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  readonly statusMessage?: string;
  /** Default `fail`. */
  readonly retryPolicy?: RetryPolicy;
  /** Attempts allowed in all under `rerun` (default 3, at most 100); must be absent or 1 for `fail`. */
  readonly maxAttempts?: number;
  /** Default: 128 random bits. */
  readonly idempotencyKey?: string;
  /**
   * A key the client chose for this creation (1 to 256 characters): while a task of the same
   * principal with this key has not expired, `create` makes no other and throws
   * `TaskExistsError` carrying it, so a client's retry finds the task its first try made.
   */
  readonly creationKey?: string;
  /** The task is born claimed by its creator, so no other instance can take it before it starts. */
  readonly lease: { readonly owner: string; readonly durationMs: number };
}

/** What `reportProgress` changes: a string sets the message, null clears it, absent keeps it. */
export interface ProgressUpdate {
  readonly statusMessage?: string | null;
  readonly progress?: TaskProgress | null;
}

/** Told the latest state of a watched task, or undefined once it is gone (expired, reaped). */
export type TaskListener = (task: TaskRecord | undefined) => void;

/** A subscription to one task's changes; close it when the work is done. */
export interface TaskWatch {
  close(): void;
}
