// Task load: a few clients, each creating build_report tasks one after another and driving each
// to its end (poll, answer the question, read the result), against whichever servers `pick`
// offers. Every acknowledged task is kept for the verdicts.
import { createTask, drive, type Flow, type Pick, type TrackedTask } from "./task-flow";
import { pause } from "./server-process";

/** Sections per report: with REPORT_STEP_MS of 100, a task runs about 0.2 s before it asks. */
const SECTIONS = 2;
/** How long one client drives one task before it starts the next (the settle phase picks it up). */
const DRIVE_MS = 20_000;

export class TaskLoad {
  readonly tasks: TrackedTask[] = [];
  private stopped = false;
  private workers: Promise<void>[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];
  private created = 0;

  constructor(
    private readonly name: string,
    private readonly flow: Flow,
    /** Where worker `i` creates its next task. */
    private readonly pickCreate: (worker: number) => ReturnType<Pick>,
    /** Where the tasks are polled and answered. */
    private readonly pickPoll: Pick,
  ) {}

  start(workers: number): void {
    this.workers = Array.from({ length: workers }, (_, i) => this.work(i));
  }

  /** Resolves true once `more` further tasks were acknowledged, false after `timeoutMs`. */
  acknowledged(more: number, timeoutMs: number): Promise<boolean> {
    const count = this.tasks.length + more;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(true)) });
    });
  }

  /** Stops creating and driving; resolves once every client finished its request in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers);
  }

  private async work(worker: number): Promise<void> {
    while (!this.stopped) {
      const target = this.pickCreate(worker);
      const task =
        target === undefined ? undefined : await createTask(target, `${this.name} report ${++this.created}`, SECTIONS, this.flow);
      if (task === undefined) {
        // Nothing up, or the call failed: the next one in a moment, not in a tight loop.
        await pause(100);
        continue;
      }
      this.tasks.push(task);
      for (const waiter of this.waiters.filter((w) => this.tasks.length >= w.count)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      await drive(task, this.pickPoll, Date.now() + DRIVE_MS, this.flow, () => this.stopped);
    }
  }
}
