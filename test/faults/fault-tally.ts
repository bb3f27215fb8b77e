// What one scenario of the fault run counts, and the outages that excuse a store-bound request's
// failure. The counted kinds are the ones that must be zero:
// - crashes: a server process that exited without being asked to (or not cleanly when asked);
// - hangs: a request unanswered past its deadline (a plain call: slower than the plain bound),
//   or a process that did not exit within its deadline after SIGTERM;
// - dropped: a request whose connection closed or reset without any HTTP answer;
// - internalErrors: -32603 answers, except store-bound requests during an outage (below);
// - lostResults: an acknowledged task that did not end completed with the result its method
//   produces (still running at the settle deadline, failed as worker-lost, failed outside any
//   outage, a wrong result, or a result that was read once and later gone);
// - lostTasks: an acknowledged task that the server later does not know ("Task not found").
// An outage runs from the injection until the store works again, plus a grace period; a
// store-bound request (the task tool, tasks/*) whose lifetime overlaps one may fail with any
// error, and a task that failed (other than as worker-lost) having run across one (from its
// acknowledgement to its lastUpdatedAt) is excused: both are reported, not counted
// (FAULTS_STRICT=1 counts such a task as a lost result).

export interface FaultCounts {
  crashes: number;
  hangs: number;
  dropped: number;
  internalErrors: number;
  lostResults: number;
  lostTasks: number;
}

export const COUNTED: readonly (keyof FaultCounts)[] = ["crashes", "hangs", "dropped", "internalErrors", "lostResults", "lostTasks"];

export interface ScenarioReport extends FaultCounts {
  readonly scenario: string;
  readonly seconds: number;
  /** Requests the scenario sent. */
  readonly requests: number;
  /** Figures and excused failures, one line each. */
  readonly notes: readonly string[];
  /** The first few distinct counted failures of each kind, to reproduce them. */
  readonly examples: readonly string[];
}

/** Distinct examples kept per kind. */
const EXAMPLES = 4;

/** Outage windows on the wall clock (ms); one open at a time. */
export class Outages {
  private readonly windows: { from: number; to: number; what: string }[] = [];
  private open?: { from: number; what: string };

  constructor(private readonly graceMs: number) {}

  begin(what: string): void {
    this.open = { from: Date.now(), what };
  }

  /** The store works again: the window closes after the grace period. */
  end(): void {
    if (this.open === undefined) return;
    this.windows.push({ ...this.open, to: Date.now() + this.graceMs });
    this.open = undefined;
  }

  /** Whether [from, to] touches an outage (an open one counts as lasting). */
  overlaps(from: number, to: number): boolean {
    if (this.open !== undefined && to >= this.open.from) return true;
    return this.windows.some((w) => from <= w.to && to >= w.from);
  }

  get count(): number {
    return this.windows.length + (this.open === undefined ? 0 : 1);
  }
}

export class Tally {
  readonly counts: FaultCounts = { crashes: 0, hangs: 0, dropped: 0, internalErrors: 0, lostResults: 0, lostTasks: 0 };
  readonly notes: string[] = [];
  /** Distinct example lines, with how often each came. */
  private readonly examples = new Map<string, number>();
  private readonly excused = new Map<string, number>();
  private readonly started = Date.now();
  requests = 0;

  constructor(readonly scenario: string) {}

  count(kind: keyof FaultCounts, example: string): void {
    this.counts[kind]++;
    const line = `${kind}: ${example.slice(0, 300)}`;
    const seen = this.examples.get(line);
    if (seen !== undefined) this.examples.set(line, seen + 1);
    else if ([...this.examples.keys()].filter((l) => l.startsWith(`${kind}:`)).length < EXAMPLES) this.examples.set(line, 1);
  }

  /** A failure the outage explains: reported by kind, not counted. */
  excuse(what: string): void {
    this.excused.set(what, (this.excused.get(what) ?? 0) + 1);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  report(): ScenarioReport {
    const excused = [...this.excused].map(([what, n]) => `excused by an outage: ${n} × ${what}`);
    return {
      scenario: this.scenario,
      seconds: (Date.now() - this.started) / 1000,
      requests: this.requests,
      ...this.counts,
      notes: [...this.notes, ...excused],
      examples: [...this.examples].map(([line, n]) => (n > 1 ? `${line} (× ${n})` : line)),
    };
  }
}

export function totalOf(reports: readonly ScenarioReport[]): FaultCounts & { requests: number; seconds: number } {
  const sum = { crashes: 0, hangs: 0, dropped: 0, internalErrors: 0, lostResults: 0, lostTasks: 0, requests: 0, seconds: 0 };
  for (const r of reports) {
    for (const kind of COUNTED) sum[kind] += r[kind];
    sum.requests += r.requests;
    sum.seconds += r.seconds;
  }
  return sum;
}

/** The p-th percentile (0..100) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Clamped to 0 .. length - 1 of a list that is not empty (checked above).
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
