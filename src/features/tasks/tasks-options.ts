import type { OpenTaskStoreOptions } from "../../stores/open-task-store";
import type { TaskStore } from "../../stores/task-store";
import { MAX_LEASE_MS, MAX_TTL_MS } from "../../stores/task-transitions";
import { RegistrationError } from "../registration-error";
import { DEFAULT_PENDING_OUTCOME_LIMITS, type PendingOutcomeLimits } from "./pending-outcomes";

/** Options of the tasks feature (`features: [tasks(options)]`); every one has a default. */
export interface TasksOptions {
  /**
   * Where tasks are kept: a URL for `openTaskStore` (`"sqlite:"`, the default: `tasks.sqlite` in
   * the data directory; `"sqlite:<file>"`; `"postgres://…"` for several instances; `"memory:"`
   * for tests), or a `TaskStore` you opened yourself. A store opened from a URL is closed with
   * the app; one you pass in is yours to close.
   */
  store?: string | TaskStore;
  /** How a store URL is opened: `dataDir`, `limits`, the PostgreSQL `schema` (the app's logger by default). */
  storeOptions?: OpenTaskStoreOptions;
  /** Default ttl of a task, in ms, or null for none: 1 hour. A tool's `task.ttlMs` overrides it. */
  ttlMs?: number | null;
  /** Default poll interval suggested to clients, in ms: 1000. A tool's `task.pollIntervalMs` overrides it. */
  pollIntervalMs?: number;
  /**
   * How long this instance's claim on a running task lasts without renewal, in ms (renewed every
   * third of it): 30 s. A process that dies is noticed, and its tasks recovered, after this.
   */
  leaseMs?: number;
  /** How often this instance looks for tasks to recover and expired tasks to delete, in ms: 5 s. */
  recoveryIntervalMs?: number;
  /** Most tasks this instance runs at once before it stops taking tasks over from the store (tasks it creates always start): 100. */
  maxRunning?: number;
  /** Names this instance in the leases it holds, for diagnostics: `<host>:<pid>:<random>` by default. */
  instanceId?: string;
  /**
   * Finished outcomes this instance keeps in memory while the store cannot take them (it retries
   * with backoff, 0.1 s doubling to 5 s, until the store takes them or the task moved on):
   * `maxOutcomes` 1000, `maxBytes` 64 MiB of their JSON. One beyond the bounds is not kept: its task
   * is recovered when its lease lapses.
   */
  pendingOutcomes?: Partial<PendingOutcomeLimits>;
}

/** The options with every default filled in. */
export interface TasksSettings {
  readonly store: string | TaskStore;
  readonly storeOptions: OpenTaskStoreOptions;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  readonly recoveryIntervalMs: number;
  readonly maxRunning: number;
  readonly instanceId?: string;
  readonly pendingOutcomes: PendingOutcomeLimits;
}

export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_POLL_INTERVAL_MS = 1000;
export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_RECOVERY_INTERVAL_MS = 5000;
export const DEFAULT_MAX_RUNNING = 100;

/** Checks the options once, when the app is built; a wrong one is a RegistrationError naming it. */
export function tasksSettings(options: TasksOptions): TasksSettings {
  const where = "tasks()";
  const store = options.store ?? "sqlite:";
  if (typeof store !== "string" && (typeof store !== "object" || store === null || typeof store.create !== "function")) {
    throw new RegistrationError(`${where}: store must be a store URL or a TaskStore`);
  }
  return {
    store,
    storeOptions: options.storeOptions ?? {},
    ttlMs: options.ttlMs === undefined ? DEFAULT_TASK_TTL_MS : checkTtl(options.ttlMs, `${where}: ttlMs`),
    pollIntervalMs: checkInteger(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, `${where}: pollIntervalMs`, MAX_TTL_MS),
    leaseMs: checkInteger(options.leaseMs ?? DEFAULT_LEASE_MS, `${where}: leaseMs`, MAX_LEASE_MS, 3),
    recoveryIntervalMs: checkInteger(
      options.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS,
      `${where}: recoveryIntervalMs`,
      MAX_LEASE_MS,
    ),
    maxRunning: checkInteger(options.maxRunning ?? DEFAULT_MAX_RUNNING, `${where}: maxRunning`, 1_000_000),
    ...(options.instanceId !== undefined && { instanceId: checkName(options.instanceId, `${where}: instanceId`) }),
    pendingOutcomes: Object.freeze({
      maxOutcomes: checkInteger(
        options.pendingOutcomes?.maxOutcomes ?? DEFAULT_PENDING_OUTCOME_LIMITS.maxOutcomes,
        `${where}: pendingOutcomes.maxOutcomes`,
        1_000_000,
      ),
      maxBytes: checkInteger(
        options.pendingOutcomes?.maxBytes ?? DEFAULT_PENDING_OUTCOME_LIMITS.maxBytes,
        `${where}: pendingOutcomes.maxBytes`,
        Number.MAX_SAFE_INTEGER,
      ),
    }),
  };
}

/** A positive integer of ms up to `max` (at least `min`). */
export function checkInteger(value: unknown, what: string, max: number, min = 1): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RegistrationError(`${what} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** A ttl: a positive integer of ms, or null for none. */
export function checkTtl(value: unknown, what: string): number | null {
  return value === null ? null : checkInteger(value, `${what} (or null)`, MAX_TTL_MS);
}

function checkName(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 200)
    throw new RegistrationError(`${what} must be a non-empty string of at most 200 characters`);
  return value;
}
