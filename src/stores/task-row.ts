import type { JsonValue } from "./json-value";
import type { JsonObject } from "../protocol/wire-types";
import type { RetryPolicy, TaskError, TaskProgress, TaskRecord, TaskStatus } from "./task-record";

/**
 * A task as every store keeps it: one flat row, JSON as text, times as milliseconds since the
 * epoch by the store's clock. SQLite stores it as is, PostgreSQL converts the times, the memory
 * store keeps it in a Map; the transitions work on it alone, so every store behaves the same.
 */
export interface TaskRow {
  readonly id: string;
  readonly principal: string | null;
  readonly tool_name: string;
  readonly input: string;
  readonly status: TaskStatus;
  readonly status_message: string | null;
  readonly progress: string | null;
  readonly created_at: number;
  readonly last_updated_at: number;
  readonly ttl_ms: number | null;
  readonly expires_at: number | null;
  readonly poll_interval_ms: number | null;
  readonly result: string | null;
  readonly error: string | null;
  readonly input_requests: string;
  readonly input_responses: string;
  readonly input_keys: string;
  readonly retry_policy: RetryPolicy;
  readonly max_attempts: number;
  readonly attempt: number;
  readonly idempotency_key: string;
  readonly lease_owner: string;
  readonly lease_token: string;
  readonly lease_expires_at: number;
  readonly revision: number;
  /** The principal and the client's creation key as JSON `[principal, key]` (unique among rows), or null. */
  readonly creation_key: string | null;
}

/** A row as read at the store's `now`. */
export interface RowAt {
  readonly row: TaskRow;
  readonly now: number;
}

/** A row after a change was applied (or refused with undefined: then `changed` is false). */
export interface ChangedRow extends RowAt {
  readonly changed: boolean;
}

/** Which unfinished tasks with a lapsed lease a batch takes. */
export type BatchSelection = "claimable" | "abandoned";

/** The columns of a row, in the order the schemas declare them. */
export const TASK_COLUMNS = [
  "id",
  "principal",
  "tool_name",
  "input",
  "status",
  "status_message",
  "progress",
  "created_at",
  "last_updated_at",
  "ttl_ms",
  "expires_at",
  "poll_interval_ms",
  "result",
  "error",
  "input_requests",
  "input_responses",
  "input_keys",
  "retry_policy",
  "max_attempts",
  "attempt",
  "idempotency_key",
  "lease_owner",
  "lease_token",
  "lease_expires_at",
  "revision",
  "creation_key",
] as const satisfies readonly (keyof TaskRow)[];

/** Columns holding milliseconds since the epoch (timestamptz in PostgreSQL). */
export const TIME_COLUMNS: ReadonlySet<keyof TaskRow> = new Set(["created_at", "last_updated_at", "expires_at", "lease_expires_at"]);

const iso = (ms: number): string => new Date(ms).toISOString();

/** The public, parsed view of a row. */
export function rowToRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    principal: row.principal,
    toolName: row.tool_name,
    input: JSON.parse(row.input) as JsonValue,
    status: row.status,
    ...(row.status_message !== null && { statusMessage: row.status_message }),
    ...(row.progress !== null && { progress: JSON.parse(row.progress) as TaskProgress }),
    createdAt: iso(row.created_at),
    lastUpdatedAt: iso(row.last_updated_at),
    ttlMs: row.ttl_ms,
    expiresAt: row.expires_at === null ? null : iso(row.expires_at),
    ...(row.poll_interval_ms !== null && { pollIntervalMs: row.poll_interval_ms }),
    ...(row.result !== null && { result: JSON.parse(row.result) as JsonValue }),
    ...(row.error !== null && { error: JSON.parse(row.error) as TaskError }),
    inputRequests: JSON.parse(row.input_requests) as JsonObject,
    inputResponses: JSON.parse(row.input_responses) as JsonObject,
    inputKeys: JSON.parse(row.input_keys) as string[],
    retryPolicy: row.retry_policy,
    maxAttempts: row.max_attempts,
    attempt: row.attempt,
    idempotencyKey: row.idempotency_key,
    ...(row.creation_key !== null && { creationKey: creationKeyOf(row.creation_key) }),
    lease: { owner: row.lease_owner, generation: row.attempt, expiresAt: iso(row.lease_expires_at) },
    revision: row.revision,
  };
}

/**
 * The value of the creation_key column: principal and key together, so one unique index keeps a key
 * to one task per principal (the anonymous scope, null, included: NULLs never collide in an index).
 */
export function scopedCreationKey(principal: string | null, key: string): string {
  return JSON.stringify([principal, key]);
}

function creationKeyOf(column: string): string {
  return (JSON.parse(column) as [string | null, string])[1];
}

/** Expired tasks are unknown to every operation, reaped or not. */
export function isExpired(row: TaskRow, now: number): boolean {
  return row.expires_at !== null && now >= row.expires_at;
}

export function isActive(row: TaskRow): boolean {
  return row.status === "working" || row.status === "input_required";
}

/** Unfinished, lease lapsed, and its policy lets it run again: `claim` and `claimNext` take it. */
export function isClaimable(row: TaskRow, now: number): boolean {
  return (
    isActive(row) && row.lease_expires_at <= now && row.retry_policy === "rerun" && row.attempt < row.max_attempts && !isExpired(row, now)
  );
}

/** Unfinished, lease lapsed, and it may not run again: `failAbandoned` ends it. */
export function isAbandoned(row: TaskRow, now: number): boolean {
  return (
    isActive(row) &&
    row.lease_expires_at <= now &&
    !(row.retry_policy === "rerun" && row.attempt < row.max_attempts) &&
    !isExpired(row, now)
  );
}
