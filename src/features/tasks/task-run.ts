import { randomUUID } from "node:crypto";
import { missingCapabilities } from "../../elicitation/capabilities";
import { withElicitationIds } from "../../elicitation/elicitation-id";
import { missingCapabilityError } from "../../elicitation/missing-capability";
import { assertInputRequest } from "../../elicitation/input-request-shape";
import type { AppLogger } from "../../protocol/app-logger";
import { ErrorCode, isMcpError, McpError } from "../../protocol/errors";
import { frozenCopy } from "../../protocol/frozen-copy";
import { NO_LOG } from "../../protocol/request-context";
import type { InputRequest } from "../../protocol/input-request";
import type { JsonObject } from "../../protocol/wire-types";
import type { JsonValue } from "../../stores/json-value";
import { isTerminal, type ClaimedTask, type LeaseRef, type TaskError, type TaskRecord, type TaskWatch } from "../../stores/task-record";
import type { TaskStore } from "../../stores/task-store";
import { isReask } from "../result";
import type { Invocation } from "../component-runner";
import type { TaskAnswers, TaskContext } from "./task-context";
import type { TaskInput } from "./task-input";
import { DEFAULT_PENDING_OUTCOME_LIMITS, PendingOutcomes } from "./pending-outcomes";
import { ProgressWriter, stopReasonOf, TaskStopped, type StopReason } from "./task-stop";
import type { TaskTool } from "./task-tool";

/** The error a `fail` task ends with when its instance shuts down before it finished. */
export const SHUTDOWN_ERROR: TaskError = Object.freeze({
  code: ErrorCode.InternalError,
  message: "The server shut down before the task finished",
  data: { reason: "shutdown" },
});

/**
 * One attempt at one task on this instance: it holds the task's lease (renewed every third of
 * `leaseMs`), watches the task (a cancel, an answer, an expiry or a takeover reaches it within the
 * store's delivery time), gives the method its `TaskContext`, and writes the outcome. Anything
 * that ends the attempt early aborts the context's signal; after that nothing more is written.
 */
export class TaskRun {
  readonly ctx: TaskContext;
  private readonly controller = new AbortController();
  private readonly lease: LeaseRef;
  private readonly progress: ProgressWriter;
  private readonly askedKeys = new Set<string>();
  /** Pending `ask`s: each is told of every change, or of the end of the attempt. */
  private readonly waiters = new Set<(ended?: Error) => void>();
  private latest: TaskRecord;
  private watch?: TaskWatch;
  private renewal?: NodeJS.Timeout;
  /** The renewal under way, if any. */
  private renewing?: Promise<void>;
  /** When the last renewal began (Date.now); the lease was granted just before the run was made. */
  private renewedAt = Date.now();
  /** Set once the attempt writes its outcome or stops: later watch news changes nothing. */
  private settled = false;
  /** Set by close(): what a pending or later `ask` rejects with. */
  private closed?: Error;

  constructor(
    private readonly store: TaskStore,
    claimed: ClaimedTask,
    private readonly tool: TaskTool,
    private readonly input: TaskInput,
    private readonly leaseMs: number,
    private readonly logger: AppLogger,
    /** Where an outcome the store cannot take now waits (the runtime's, shared by its runs). */
    private readonly outcomes: PendingOutcomes = new PendingOutcomes(DEFAULT_PENDING_OUTCOME_LIMITS, logger),
  ) {
    this.latest = claimed.task;
    this.lease = { token: claimed.lease.token, generation: claimed.lease.generation };
    this.progress = new ProgressWriter(store, this.id, this.lease, (error) => this.writeFailed("progress", error));
    this.ctx = this.context();
  }

  get id(): string {
    return this.latest.id;
  }

  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Starts renewing, then watching; resolves once both are in place. The lease runs from the
   * create or claim that granted it, so renewing starts at once: a watch slow to set up (a cold
   * process, a loaded store) must not let the lease lapse before its first renewal.
   */
  async begin(): Promise<void> {
    this.renewal = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.renewal.unref();
    this.watch = await this.store.watch(this.id, this.latest.principal, (task) => this.observe(task));
  }

  /** Runs the method to its end and writes what it came to, unless the attempt stopped first. */
  async execute(invocation: Invocation): Promise<void> {
    if (this.stopped) return; // stopped (cancelled, shut down) before the method could start
    let outcome: { result: JsonValue } | { error: TaskError };
    try {
      const value = await invocation.run(this.ctx);
      if (isReask(value) || (typeof value === "object" && value !== null && (value as JsonObject).resultType === "input_required")) {
        outcome = { error: this.crash(new Error("a task cannot answer input_required (or Result.reask); ask through ctx.ask")) };
      } else {
        outcome = { result: (await invocation.finish(value)) as JsonValue };
      }
    } catch (error) {
      if (this.stopped) return; // the signal's reason, most likely: the attempt already ended
      outcome = { error: isMcpError(error) ? protocolError(error) : this.crash(error) };
    }
    if (this.stopped) return;
    await this.settle(outcome);
  }

  /** Fails the task with a generic internal error (something went wrong before the method ran). */
  async abandon(error: unknown): Promise<void> {
    if (!this.stopped) await this.settle({ error: isMcpError(error) ? protocolError(error) : this.crash(error) });
  }

  /** Ends the attempt because the app closes: a `"rerun"` task is handed over, a `"fail"` one fails. */
  async shutdown(): Promise<void> {
    if (this.settled) return;
    this.stop("shutdown");
    try {
      if (this.tool.retryPolicy === "rerun") await this.store.releaseLease(this.id, this.lease);
      else await this.store.fail(this.id, this.lease, SHUTDOWN_ERROR);
    } catch (error) {
      if (stopReasonOf(error) === undefined) this.logger.warn("task shutdown write failed", { taskId: this.id, error: describe(error) });
    }
  }

  /** Stops watching and renewing; an `ask` the method left pending rejects. */
  close(): void {
    this.settled = true;
    this.closed = new TaskStopped("ended");
    clearInterval(this.renewal);
    this.watch?.close();
    for (const wake of this.waiters) wake(this.closed);
  }

  private stop(reason: StopReason): void {
    if (this.stopped) return;
    this.settled = true;
    this.controller.abort(new TaskStopped(reason));
    for (const wake of this.waiters) wake();
  }

  /**
   * Writes the outcome. An outcome JSON cannot hold (a cycle, a bigint in a result or in an error's
   * data) is written as a crash instead. One the store cannot take now (unavailable) is kept in
   * memory (PendingOutcomes, bounded) and written again with backoff until the store takes it or the
   * task moves on without it (ended, taken over, expired); what does not fit is left to recovery.
   */
  private async settle(outcome: { result: JsonValue } | { error: TaskError }, fallback = true): Promise<void> {
    this.settled = true;
    await this.progress.drain();
    const write = () =>
      "result" in outcome ? this.store.complete(this.id, this.lease, outcome.result) : this.store.fail(this.id, this.lease, outcome.error);
    try {
      await write();
    } catch (error) {
      if (stopReasonOf(error) !== undefined) return; // cancelled, taken over or expired meanwhile: nothing to write
      if (error instanceof TypeError && fallback) return this.settle({ error: this.crash(error) }, false);
      if ((error as { code?: string }).code !== "store-unavailable") {
        this.logger.error("task outcome could not be written; the task is recovered when its lease lapses", {
          taskId: this.id,
          error: describe(error),
        });
        return;
      }
      this.outcomes.hold(this.id, Buffer.byteLength(JSON.stringify(outcome), "utf8"), write, error);
    }
  }

  private observe(task: TaskRecord | undefined): void {
    if (this.settled) return;
    if (task === undefined) return this.stop("expired");
    if (task.lease.generation !== this.lease.generation) return this.stop("taken-over");
    if (task.revision >= this.latest.revision) this.latest = task;
    if (isTerminal(task.status)) return this.stop(task.status === "cancelled" ? "cancelled" : "ended");
    for (const wake of this.waiters) wake();
  }

  /**
   * Renews the lease now if its last renewal began more than half a lease ago (the timer renews
   * every third: the process was held up), else waits for the renewal under way, if any. The
   * runtime's recovery pass asks first, so a lease of this instance that lapsed while its process
   * was frozen is not taken for a lost worker's.
   */
  renewIfOverdue(): Promise<void> {
    return Date.now() - this.renewedAt > this.leaseMs / 2 ? this.renew() : (this.renewing ?? Promise.resolve());
  }

  /** Renews the lease, or joins the renewal under way. */
  private renew(): Promise<void> {
    if (this.settled) return Promise.resolve();
    return (this.renewing ??= this.renewOnce().finally(() => (this.renewing = undefined)));
  }

  private async renewOnce(): Promise<void> {
    this.renewedAt = Date.now();
    try {
      await this.store.renewLease(this.id, this.lease, this.leaseMs);
    } catch (error) {
      this.writeFailed("lease renewal", error);
    }
  }

  private async ask(requests: Readonly<Record<string, InputRequest>>, options: { statusMessage?: string } = {}): Promise<TaskAnswers> {
    this.controller.signal.throwIfAborted();
    const keys = Object.keys(requests ?? {});
    if (keys.length === 0) throw new TypeError("ctx.ask needs at least one input request");
    for (const key of keys) assertInputRequest(requests[key], `input request "${key}"`);
    const repeated = keys.filter((key) => this.askedKeys.has(key));
    if (repeated.length > 0)
      throw new TypeError(
        `ctx.ask: ${repeated.map((k) => JSON.stringify(k)).join(", ")} already asked in this task; a key is asked once in a task's life`,
      );
    const missing = missingCapabilities(Object.values(requests), this.ctx.clientCapabilities);
    if (missing) throw missingCapabilityError(missing, this.ctx.clientCapabilities, "request");
    for (const key of keys) this.askedKeys.add(key);
    // On a re-run, keys asked before are answered already or still outstanding: never asked twice.
    const fresh = keys.filter((key) => !Object.hasOwn(this.latest.inputResponses, key) && !Object.hasOwn(this.latest.inputRequests, key));
    if (fresh.length > 0) {
      try {
        // A URL question carries an id of this task and its key, as a flow's carries one of its operation.
        const asked: JsonObject = withElicitationIds(Object.fromEntries(fresh.map((key) => [key, requests[key]!])), () => this.id);
        const task = await this.store.requestInput(
          this.id,
          this.lease,
          asked,
          options.statusMessage === undefined ? undefined : { statusMessage: options.statusMessage },
        );
        if (task.revision >= this.latest.revision) this.latest = task;
      } catch (error) {
        const reason = stopReasonOf(error);
        if (reason === undefined) throw error;
        this.stop(reason);
        this.controller.signal.throwIfAborted();
      }
    }
    await this.until(() => keys.every((key) => Object.hasOwn(this.latest.inputResponses, key)));
    return Object.freeze({ inputResponses: frozenCopy(Object.fromEntries(keys.map((key) => [key, this.latest.inputResponses[key]]))) });
  }

  /** Resolves once `done()` holds after a watch update; rejects with the signal's reason when the attempt stops. */
  private until(done: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = (ended = this.closed) => {
        if (ended !== undefined || this.stopped) return (this.waiters.delete(check), reject(ended ?? this.controller.signal.reason));
        if (done()) return (this.waiters.delete(check), resolve());
      };
      this.waiters.add(check);
      check();
    });
  }

  /** A crash: a generic internal error on the wire; the details, under an error id, in the app logger. */
  private crash(error: unknown): TaskError {
    const errorId = randomUUID();
    this.logger.error("task failed", {
      taskId: this.id,
      tool: this.tool.name,
      errorId,
      error: describe(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return { code: ErrorCode.InternalError, message: "Internal error", data: { errorId } };
  }

  /** A write that failed: the task ended or moved on (stop), or the store is down (say so, carry on). */
  private writeFailed(what: string, error: unknown): void {
    const reason = stopReasonOf(error);
    if (reason !== undefined) this.stop(reason);
    else this.logger.warn(`task ${what} could not be written`, { taskId: this.id, error: describe(error) });
  }

  private context(): TaskContext {
    const task = this.latest;
    return Object.freeze({
      requestMethod: "tools/call",
      requestParams: frozenCopy({ name: this.tool.name, arguments: this.input.arguments }),
      principal: task.principal,
      // A background run outlives the token that created it; its claims are never stored.
      authorization: undefined,
      clientCapabilities: frozenCopy(this.input.capabilities),
      protocolVersion: this.input.protocolVersion,
      inputResponses: undefined,
      requestState: undefined,
      progress: Object.freeze({
        enabled: true,
        report: (progress: number, total?: number, message?: string) =>
          this.progress.write({
            progress: total === undefined ? { progress } : { progress, total },
            ...(message !== undefined && { statusMessage: message }),
          }),
      }),
      log: NO_LOG,
      signal: this.controller.signal,
      taskId: task.id,
      idempotencyKey: task.idempotencyKey,
      attempt: task.attempt,
      setStatus: (message: string | null) => this.progress.write({ statusMessage: message }),
      ask: (requests: Readonly<Record<string, InputRequest>>, options?: { statusMessage?: string }) => this.ask(requests, options),
    });
  }
}

function protocolError(error: McpError): TaskError {
  return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data as JsonValue }) };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
