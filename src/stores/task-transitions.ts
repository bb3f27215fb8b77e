/*
 * Every change to a task, as pure functions of (row, now): the one place the rules live.
 * A change returns the new row, or undefined when nothing changes; it throws a TaskStoreError
 * to refuse. Each store runs them inside its own atomic step (a Map update, an IMMEDIATE
 * transaction, a locked PostgreSQL row), so the three stores cannot drift apart.
 */
import type { JsonValue } from "./json-value";
import type { JsonObject } from "../protocol/wire-types";
import type { CreateTaskInput, LeaseRef, ProgressUpdate, TaskError } from "./task-record";
import { isTerminal } from "./task-record";
import { TaskRow, isAbandoned, isClaimable, isExpired, rowToRecord, scopedCreationKey } from "./task-row";
import type { TaskLimits } from "./task-store";
import { InputKeyReusedError, StaleLeaseError, TaskExistsError, TaskFinishedError, TaskLimitError } from "./task-store-errors";
import { randomId } from "./random-id";

/** A change to one row: the new row, or undefined for no change. */
export type RowChange = (row: TaskRow, now: number) => TaskRow | undefined;

/** Longest lease a claim may ask for: one day. */
export const MAX_LEASE_MS = 24 * 60 * 60 * 1000;
/** Longest ttl a task may have: ten years. */
export const MAX_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;
/** Most attempts `rerun` may allow. */
export const MAX_ATTEMPTS = 100;
/** Attempts `rerun` allows when the caller does not say. */
export const DEFAULT_RERUN_ATTEMPTS = 3;

/** The error `failAbandoned` ends a task with. */
export function abandonedError(row: TaskRow): TaskError {
  const message =
    row.retry_policy === "rerun"
      ? `The task's worker stopped before the task finished, on all ${row.attempt} attempts allowed`
      : "The task's worker stopped before the task finished";
  return { code: -32603, message, data: { reason: "worker-lost", attempts: row.attempt } };
}

function positiveInteger(value: unknown, what: string, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${what} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return value;
}

function nonEmptyString(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

/** A value's JSON text; refuses what JSON cannot write at all. */
function jsonText(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${what} is not a JSON value`);
  return text;
}

function jsonMapText(map: unknown, what: string): Record<string, JsonValue> {
  if (map === null || typeof map !== "object" || Array.isArray(map)) throw new TypeError(`${what} must be an object of key to value`);
  return JSON.parse(jsonText(map, what)) as Record<string, JsonValue>;
}

function checkInputBytes(text: string, limits: TaskLimits): void {
  if (Buffer.byteLength(text, "utf8") > limits.maxInputBytes) throw new TaskLimitError("inputBytes", limits.maxInputBytes);
}

/** Checks leaseMs up front, so a bad value never reaches a store's transaction. */
function checkLeaseMs(leaseMs: number): number {
  return positiveInteger(leaseMs, "leaseMs", MAX_LEASE_MS);
}

/** Checks a batch limit. */
export function checkBatchLimit(limit: number | undefined, fallback: number): number {
  return positiveInteger(limit ?? fallback, "limit", 10_000);
}

/** Refuses a new task for a principal (null: the anonymous scope, with its own limits) at a limit, given its unexpired tasks. */
export function checkPrincipalCounts(counts: { total: number; active: number }, limits: TaskLimits, principal: string | null): void {
  if (principal === null) {
    if (counts.total >= limits.maxAnonymousTasks) throw new TaskLimitError("anonymousTasks", limits.maxAnonymousTasks);
    if (counts.active >= limits.maxActiveAnonymousTasks) throw new TaskLimitError("activeAnonymousTasks", limits.maxActiveAnonymousTasks);
    return;
  }
  if (counts.total >= limits.maxTasksPerPrincipal) throw new TaskLimitError("tasksPerPrincipal", limits.maxTasksPerPrincipal);
  if (counts.active >= limits.maxActiveTasksPerPrincipal)
    throw new TaskLimitError("activeTasksPerPrincipal", limits.maxActiveTasksPerPrincipal);
}

/** Longest client creation key. */
export const MAX_CREATION_KEY_LENGTH = 256;

/** A prepared `create`: what can be checked without the store, and the row it will insert. */
export interface NewTask {
  readonly principal: string | null;
  /** The creation_key column of the new row (principal and key), or null when the client gave none. */
  readonly creationKey: string | null;
  build(now: number): TaskRow;
}

/**
 * Checks the row already holding the new task's creation key, inside the create's atomic step: a
 * live one is the task the client asked for (TaskExistsError carries it); an expired one is unknown
 * to everyone, so its key is free again and the caller clears it (true) before inserting.
 */
export function checkCreationKey(holder: TaskRow | undefined, now: number): boolean {
  if (holder === undefined) return false;
  if (!isExpired(holder, now)) throw new TaskExistsError(rowToRecord(holder));
  return true;
}

/** Validates a create request (throws TypeError/RangeError for programming mistakes, TaskLimitError for input size). */
export function prepareCreate(input: CreateTaskInput, limits: TaskLimits): NewTask {
  if (input.principal !== null && typeof input.principal !== "string") throw new TypeError("principal must be a string or null");
  const toolName = nonEmptyString(input.toolName, "toolName");
  const ttlMs = input.ttlMs === null ? null : positiveInteger(input.ttlMs, "ttlMs", MAX_TTL_MS);
  const pollIntervalMs = input.pollIntervalMs === undefined ? null : positiveInteger(input.pollIntervalMs, "pollIntervalMs", MAX_TTL_MS);
  const retryPolicy = input.retryPolicy ?? "fail";
  if (retryPolicy !== "rerun" && retryPolicy !== "fail") throw new TypeError(`retryPolicy must be "rerun" or "fail"`);
  const maxAttempts =
    retryPolicy === "fail"
      ? positiveInteger(input.maxAttempts ?? 1, "maxAttempts for retryPolicy fail", 1)
      : positiveInteger(input.maxAttempts ?? DEFAULT_RERUN_ATTEMPTS, "maxAttempts", MAX_ATTEMPTS);
  const owner = nonEmptyString(input.lease?.owner, "lease.owner");
  const leaseMs = checkLeaseMs(input.lease?.durationMs);
  const idempotencyKey = input.idempotencyKey === undefined ? randomId() : nonEmptyString(input.idempotencyKey, "idempotencyKey");
  if (
    input.creationKey !== undefined &&
    (typeof input.creationKey !== "string" || input.creationKey.length === 0 || input.creationKey.length > MAX_CREATION_KEY_LENGTH)
  ) {
    throw new TypeError(`creationKey must be a string of 1 to ${MAX_CREATION_KEY_LENGTH} characters`);
  }
  const creationKey = input.creationKey === undefined ? null : scopedCreationKey(input.principal, input.creationKey);
  const statusMessage = input.statusMessage === undefined ? null : String(input.statusMessage);
  const inputText = jsonText(input.input, "input");
  checkInputBytes(inputText, limits);
  const id = randomId();
  const leaseToken = randomId();
  return {
    principal: input.principal,
    creationKey,
    build: (now) => ({
      id,
      principal: input.principal,
      tool_name: toolName,
      input: inputText,
      status: "working",
      status_message: statusMessage,
      progress: null,
      created_at: now,
      last_updated_at: now,
      ttl_ms: ttlMs,
      expires_at: ttlMs === null ? null : now + ttlMs,
      poll_interval_ms: pollIntervalMs,
      result: null,
      error: null,
      input_requests: "{}",
      input_responses: "{}",
      input_keys: "[]",
      retry_policy: retryPolicy,
      max_attempts: maxAttempts,
      attempt: 1,
      idempotency_key: idempotencyKey,
      lease_owner: owner,
      lease_token: leaseToken,
      lease_expires_at: now + leaseMs,
      revision: 1,
      creation_key: creationKey,
    }),
  };
}

/** A visible change: lastUpdatedAt and revision move with it. */
function touched(row: TaskRow, now: number, changes: Partial<TaskRow>): TaskRow {
  return { ...row, ...changes, last_updated_at: now, revision: row.revision + 1 };
}

/** Only the current lease holder writes, and only while the task runs. */
function checkWriter(row: TaskRow, lease: LeaseRef): void {
  if (isTerminal(row.status)) throw new TaskFinishedError(row.id, row.status);
  if (lease.token !== row.lease_token || lease.generation !== row.attempt) throw new StaleLeaseError(row.id, lease.generation);
}

export function claimChange(owner: string, leaseMs: number, token: string): RowChange {
  nonEmptyString(owner, "owner");
  checkLeaseMs(leaseMs);
  return (row, now) => {
    if (!isClaimable(row, now)) return undefined;
    const lease = { attempt: row.attempt + 1, lease_owner: owner, lease_token: token, lease_expires_at: now + leaseMs };
    // The message follows the status: a working task's message was the lost attempt's progress, so the new
    // attempt starts without one; an input_required task keeps the message of the questions still open.
    return row.status === "working" && row.status_message !== null
      ? touched(row, now, { ...lease, status_message: null })
      : { ...row, ...lease };
  };
}

export function renewChange(lease: LeaseRef, leaseMs: number): RowChange {
  checkLeaseMs(leaseMs);
  return (row, now) => {
    checkWriter(row, lease);
    return { ...row, lease_expires_at: now + leaseMs };
  };
}

export function releaseChange(lease: LeaseRef): RowChange {
  return (row, now) => {
    if (isTerminal(row.status) || lease.token !== row.lease_token || lease.generation !== row.attempt || row.lease_expires_at <= now)
      return undefined;
    return { ...row, lease_expires_at: now };
  };
}

export function progressChange(lease: LeaseRef, update: ProgressUpdate): RowChange {
  const changes: { status_message?: string | null; progress?: string | null } = {};
  if (update.statusMessage !== undefined) changes.status_message = update.statusMessage === null ? null : String(update.statusMessage);
  if (update.progress !== undefined) {
    const p = update.progress;
    if (
      p !== null &&
      (typeof p.progress !== "number" ||
        !Number.isFinite(p.progress) ||
        (p.total !== undefined && (typeof p.total !== "number" || !Number.isFinite(p.total))))
    ) {
      throw new TypeError("progress must be { progress: number, total?: number } with finite numbers");
    }
    changes.progress =
      p === null ? null : jsonText(p.total === undefined ? { progress: p.progress } : { progress: p.progress, total: p.total }, "progress");
  }
  return (row, now) => {
    checkWriter(row, lease);
    return touched(row, now, changes);
  };
}

export function requestInputChange(lease: LeaseRef, requests: JsonObject, statusMessage: string | undefined): RowChange {
  const asked = jsonMapText(requests, "requests");
  const keys = Object.keys(asked);
  if (keys.length === 0) throw new RangeError("requestInput needs at least one request");
  return (row, now) => {
    checkWriter(row, lease);
    const used = JSON.parse(row.input_keys) as string[];
    const usedSet = new Set(used);
    const reused = keys.filter((k) => usedSet.has(k));
    if (reused.length > 0) throw new InputKeyReusedError(row.id, reused);
    const outstanding = JSON.parse(row.input_requests) as Record<string, JsonValue>;
    return touched(row, now, {
      status: "input_required",
      input_requests: JSON.stringify({ ...outstanding, ...asked }),
      input_keys: JSON.stringify([...used, ...keys]),
      // The message follows the status: the questions' own, or none (never the progress message of before).
      status_message: statusMessage === undefined ? null : String(statusMessage),
    });
  };
}

/**
 * The end of a task: nothing stays outstanding and the worker's lease ends (cancel keeps it so its holder hears
 * `TaskFinishedError`). `failed` and `cancelled` clear the status message (a failed task reads its error's
 * message instead); `completed` keeps the worker's last one, written on its way to the result.
 */
function finished(row: TaskRow, now: number, changes: Partial<TaskRow>): TaskRow {
  return touched(row, now, { input_requests: "{}", ...changes });
}

export function completeChange(lease: LeaseRef, result: JsonValue): RowChange {
  const text = jsonText(result, "result");
  return (row, now) => {
    checkWriter(row, lease);
    return finished(row, now, { status: "completed", result: text, lease_expires_at: now });
  };
}

export function failChange(lease: LeaseRef, error: TaskError): RowChange {
  if (error === null || typeof error !== "object" || !Number.isSafeInteger(error.code) || typeof error.message !== "string") {
    throw new TypeError("error must be { code: integer, message: string, data?: JSON }");
  }
  const text = jsonText(
    error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data },
    "error",
  );
  return (row, now) => {
    checkWriter(row, lease);
    return finished(row, now, { status: "failed", error: text, status_message: null, lease_expires_at: now });
  };
}

export const cancelChange: RowChange = (row, now) =>
  isTerminal(row.status) ? undefined : finished(row, now, { status: "cancelled", status_message: null });

export function answerChange(responses: JsonObject, limits: TaskLimits): RowChange {
  const given = jsonMapText(responses, "responses");
  return (row, now) => {
    if (row.status !== "input_required") return undefined;
    const outstanding = JSON.parse(row.input_requests) as Record<string, JsonValue>;
    const accepted = Object.keys(given).filter((key) => Object.hasOwn(outstanding, key));
    if (accepted.length === 0) return undefined;
    const answers = JSON.parse(row.input_responses) as Record<string, JsonValue>;
    const responsesText = JSON.stringify({ ...answers, ...Object.fromEntries(accepted.map((key) => [key, given[key]])) });
    checkInputBytes(responsesText, limits);
    const acceptedSet = new Set(accepted);
    const left = Object.fromEntries(Object.entries(outstanding).filter(([key]) => !acceptedSet.has(key)));
    const done = Object.keys(left).length === 0;
    return touched(row, now, {
      input_requests: JSON.stringify(left),
      input_responses: responsesText,
      ...(done && { status: "working", status_message: null }),
    });
  };
}

export const abandonChange: RowChange = (row, now) =>
  isAbandoned(row, now)
    ? finished(row, now, { status: "failed", error: JSON.stringify(abandonedError(row)), status_message: null })
    : undefined;
