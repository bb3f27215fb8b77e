// The fault run's figures, each from an environment variable with a small default, so the whole
// run stays well under five minutes on a 2-core machine; raise them to push harder.
export interface FaultSettings {
  /** Which scenarios to run (FAULTS_ONLY, comma-separated; default all). */
  readonly only: readonly string[];
  /** How long any request may go unanswered before it counts as a hang (FAULTS_DEADLINE_MS, 10,000). */
  readonly deadlineMs: number;
  /** After an outage ends, how long store-bound requests may still fail (FAULTS_GRACE_MS, 2,000). */
  readonly graceMs: number;
  /** How long every acknowledged task gets, once the faults are over, to end completed (FAULTS_SETTLE_MS, 15,000). */
  readonly settleMs: number;
  /** Count a task that failed while an outage lasted as a lost result too (FAULTS_STRICT=1; default off). */
  readonly strict: boolean;
  /** Concurrent task lifecycles of the load (FAULTS_WORKERS, 4). */
  readonly workers: number;
  /** One section's work in the tasks sample, REPORT_STEP_MS of the sample (FAULTS_STEP_MS, 100). */
  readonly stepMs: number;
  /** pg_terminate_backend rounds on the instances' connections (FAULTS_PG_TERMINATIONS, 4). */
  readonly pgTerminations: number;
  /** How long PostgreSQL stays stopped by `pg_ctl stop -m fast` (FAULTS_PG_DOWN_MS, 4,000: longer than the 2.6 s a task outcome is retried today). */
  readonly pgDownMs: number;
  /** Tasks acknowledged between two injections (FAULTS_TASKS_BETWEEN, 6). */
  readonly tasksBetween: number;
  /** How long the second process holds SQLite's write lock with no task traffic (FAULTS_IDLE_LOCK_MS, 6,000: over the 5 s recovery period). */
  readonly idleLockMs: number;
  /** How long the second process holds SQLite's write lock under task load (FAULTS_LOCK_MS, 3,000). */
  readonly lockMs: number;
  /** A plain (non-task) call slower than this is a hang (FAULTS_PLAIN_HANG_MS, 500). */
  readonly plainHangMs: number;
  /** Tasks acknowledged on SQLite before the kill -9 (FAULTS_KILL_AFTER, 12). */
  readonly killAfter: number;
  /** How long a process may take to exit after SIGTERM (FAULTS_EXIT_MS, 10,000). */
  readonly exitMs: number;
  /** The connection cap of the cap scenario (FAULTS_CAP, 16). */
  readonly cap: number;
  /** Connections opened over the cap (FAULTS_OVER_CAP, 48). */
  readonly overCap: number;
}

const SCENARIOS = ["postgres", "sqlite", "sigterm", "cap"] as const;

function envNumber(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

export function faultSettings(): FaultSettings {
  const only = (process.env.FAULTS_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new RangeError(`FAULTS_ONLY: unknown scenario ${unknown.join(", ")}; expected any of ${SCENARIOS.join(", ")}`);
  return {
    only: only.length > 0 ? only : SCENARIOS,
    deadlineMs: envNumber("FAULTS_DEADLINE_MS", 10_000),
    graceMs: envNumber("FAULTS_GRACE_MS", 2_000, 0),
    settleMs: envNumber("FAULTS_SETTLE_MS", 15_000),
    strict: process.env.FAULTS_STRICT === "1",
    workers: envNumber("FAULTS_WORKERS", 4),
    stepMs: envNumber("FAULTS_STEP_MS", 100),
    pgTerminations: envNumber("FAULTS_PG_TERMINATIONS", 4, 0),
    pgDownMs: envNumber("FAULTS_PG_DOWN_MS", 4_000),
    tasksBetween: envNumber("FAULTS_TASKS_BETWEEN", 6),
    idleLockMs: envNumber("FAULTS_IDLE_LOCK_MS", 6_000),
    lockMs: envNumber("FAULTS_LOCK_MS", 3_000),
    plainHangMs: envNumber("FAULTS_PLAIN_HANG_MS", 500),
    killAfter: envNumber("FAULTS_KILL_AFTER", 12),
    exitMs: envNumber("FAULTS_EXIT_MS", 10_000),
    cap: envNumber("FAULTS_CAP", 16),
    overCap: envNumber("FAULTS_OVER_CAP", 48),
  };
}
