import os from "node:os";
import { randomBytes } from "node:crypto";
import type { AppLogger } from "../../protocol/app-logger";
import { canonicalJson } from "../../protocol/canonical-json";
import { ErrorCode, McpError } from "../../protocol/errors";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import type { JsonValue } from "../../stores/json-value";
import { openTaskStore } from "../../stores/open-task-store";
import type { ClaimedTask, TaskError, TaskRecord } from "../../stores/task-record";
import type { TaskExistsError } from "../../stores/task-store-errors";
import { MAX_CREATION_KEY_LENGTH } from "../../stores/task-transitions";
import type { TaskStore } from "../../stores/task-store";
import type { ComponentRunner, Invocation } from "../component-runner";
import { inlineTaskContext } from "./inline-task-context";
import { PendingOutcomes } from "./pending-outcomes";
import type { TaskContext } from "./task-context";
import { readTaskInput, taskInput, type TaskInput } from "./task-input";
import { TaskRun } from "./task-run";
import { storeFailure } from "./task-store-failure";
import type { TaskTool } from "./task-tool";
import { createTaskResult } from "./task-wire";
import { receivesTasks, tasksCapabilityMissing } from "./tasks-extension";
import type { TasksSettings } from "./tasks-options";
import { IDEMPOTENCY_KEY_META } from "./task-meta-keys";

export { IDEMPOTENCY_KEY_META };

/** The request's idempotency key, if it sent one; a malformed one is the client's mistake (-32602). */
function idempotencyKeyOf(params: Readonly<JsonObject>): string | undefined {
  const meta = params._meta;
  if (!isPlainObject(meta) || !Object.hasOwn(meta, IDEMPOTENCY_KEY_META)) return undefined;
  const key = meta[IDEMPOTENCY_KEY_META];
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_CREATION_KEY_LENGTH) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${IDEMPOTENCY_KEY_META}"] must be a string of 1 to ${MAX_CREATION_KEY_LENGTH} characters`,
    );
  }
  return key;
}

/** The task a retry finds must be the same call: the same tool and arguments. */
function sameCall(task: TaskRecord, toolName: string, input: TaskInput): boolean {
  const stored = readTaskInput(task.input);
  return task.toolName === toolName && stored !== undefined && canonicalJson(stored.arguments) === canonicalJson(input.arguments);
}

/** Ends a task that an instance claimed but cannot run: no tool of that name is registered here. */
function unknownToolError(name: string): TaskError {
  return {
    code: ErrorCode.InternalError,
    message: "No instance of the server can run this task's tool",
    data: { reason: "unknown-tool", tool: name },
  };
}

/**
 * The tasks of one app instance: opens the store when the app starts, creates and runs tasks, and on a
 * timer recovers what died elsewhere (every `recoveryIntervalMs`: its own overdue leases renewed,
 * `failAbandoned`, then `claimNext` while fewer than `maxRunning` tasks run here, then
 * `reapExpired`). Closing it hands running `"rerun"` tasks over (their lease released) and fails
 * the `"fail"` ones.
 */
export class TaskRuntime {
  readonly instanceId: string;
  private opened?: Promise<TaskStore>;
  private readonly runs = new Map<string, TaskRun>();
  private readonly byName: Map<string, TaskTool>;
  private runner?: ComponentRunner;
  private timer?: NodeJS.Timeout;
  private recovering?: Promise<void>;
  private closed = false;
  /** Task creations under way (execute() between its check of `closed` and the launch). */
  private readonly creating = new Set<Promise<unknown>>();
  /** Outcomes the store could not take when their method ended, retried until it does. */
  readonly outcomes: PendingOutcomes;

  constructor(
    private readonly settings: TasksSettings,
    tools: Iterable<TaskTool>,
    private readonly logger: AppLogger,
  ) {
    this.byName = new Map([...tools].map((tool) => [tool.name, tool]));
    this.outcomes = new PendingOutcomes(settings.pendingOutcomes, logger);
    this.instanceId = settings.instanceId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  }

  /** The store, opened once; a failed open is tried again on the next call. */
  store(): Promise<TaskStore> {
    const store = this.settings.store;
    if (typeof store !== "string") return Promise.resolve(store);
    this.opened ??= openTaskStore(store, { ...this.settings.storeOptions, logger: this.settings.storeOptions.logger ?? this.logger }).catch(
      (error: unknown) => {
        this.opened = undefined;
        throw error;
      },
    );
    return this.opened;
  }

  /**
   * Opens the store now (a store that cannot be opened is reported at start-up, and tried again
   * when next needed) and starts recovery: at once (a restarted instance picks up what its
   * predecessor left), then on a timer.
   */
  start(runner: ComponentRunner): void {
    this.runner = runner;
    this.store().catch((error: unknown) =>
      this.logger.error("the task store could not be opened", { error: error instanceof Error ? error.message : String(error) }),
    );
    this.schedule(0);
  }

  /**
   * A task tool's call, once its `@Elicit` rounds resolved: an ordinary call for a client that did
   * not declare the extension on this 2026-07-28 request (an `"optional"` tool), else a task
   * created durably in the store, started here, and answered with its CreateTaskResult.
   */
  async execute(
    tool: TaskTool,
    invocation: Invocation,
  ): Promise<{ kind: "inline"; value: unknown } | { kind: "handover"; result: JsonObject }> {
    if (!receivesTasks({ clientCapabilities: invocation.clientCapabilities, protocolVersion: invocation.ctx.protocolVersion })) {
      if (tool.support === "required") throw tasksCapabilityMissing(invocation.ctx);
      return { kind: "inline", value: await invocation.run(inlineTaskContext(invocation.ctx)) };
    }
    if (this.closed) throw new McpError(ErrorCode.InternalError, "Internal error");
    // close() waits for creates under way: a task born while the server drains is launched, then handed over.
    const creating = this.create(tool, invocation);
    this.creating.add(creating);
    try {
      return await creating;
    } finally {
      this.creating.delete(creating);
    }
  }

  /** Creates the task durably and launches its first attempt (or answers the task a retried key made). */
  private async create(tool: TaskTool, invocation: Invocation): Promise<{ kind: "handover"; result: JsonObject }> {
    const input = taskInput(invocation.recorded, invocation.clientCapabilities, invocation.ctx.protocolVersion);
    const creationKey = idempotencyKeyOf(invocation.ctx.requestParams);
    let claimed: ClaimedTask;
    let store: TaskStore;
    try {
      store = await this.store();
      claimed = await store.create({
        ...(creationKey !== undefined && { creationKey }),
        principal: invocation.ctx.principal,
        toolName: tool.name,
        // as unknown as: TaskInput is JSON (answers, capabilities, strings), but an interface has no index signature to match JsonValue.
        input: input as unknown as JsonValue,
        ttlMs: tool.ttlMs,
        pollIntervalMs: tool.pollIntervalMs,
        retryPolicy: tool.retryPolicy,
        maxAttempts: tool.maxAttempts,
        lease: { owner: this.instanceId, durationMs: this.settings.leaseMs },
      });
    } catch (error) {
      if ((error as { code?: string } | null)?.code === "task-exists") return this.retried((error as TaskExistsError).task, tool, input);
      throw storeFailure(error, this.logger, "create");
    }
    this.launch(store, claimed, tool, input, async () => invocation);
    return { kind: "handover", result: createTaskResult(claimed.task) };
  }

  /** A retry of a create that already made its task: that task as it is now, unless the key was used for another call. */
  private retried(task: TaskRecord, tool: TaskTool, input: TaskInput): { kind: "handover"; result: JsonObject } {
    if (!sameCall(task, tool.name, input)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: _meta["${IDEMPOTENCY_KEY_META}"] was already used for another call (another tool or other arguments); use a new key for a new call`,
      );
    }
    this.logger.info("task create retried: answered the existing task", { taskId: task.id, tool: tool.name });
    return { kind: "handover", result: createTaskResult(task) };
  }

  /** Closes: no more recovery; running tasks are handed over or failed; a store opened from a URL is closed. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.recovering;
    await Promise.allSettled([...this.creating]);
    await Promise.all([...this.runs.values()].map((run) => run.shutdown()));
    this.runs.clear();
    await this.outcomes.close();
    if (this.opened) await (await this.opened.catch(() => undefined))?.close();
  }

  /** Runs one attempt in the background: watch and lease first, then the method, then its outcome. */
  private launch(
    store: TaskStore,
    claimed: ClaimedTask,
    tool: TaskTool,
    input: TaskInput,
    prepare: (ctx: TaskContext) => Promise<Invocation>,
  ): void {
    const run = new TaskRun(store, claimed, tool, input, this.settings.leaseMs, this.logger, this.outcomes);
    this.runs.set(run.id, run);
    void (async () => {
      try {
        await run.begin();
        await run.execute(await prepare(run.ctx));
      } catch (error) {
        await run.abandon(error);
      } finally {
        run.close();
        this.runs.delete(run.id);
      }
    })();
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.recovering = this.recover().finally(() => {
        this.recovering = undefined;
        this.schedule(this.settings.recoveryIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** One recovery pass; a store that cannot be reached is logged and tried again next time. */
  private async recover(): Promise<void> {
    try {
      const store = await this.store();
      // A result kept in memory is written before recovery could fail its task as worker-lost.
      await this.outcomes.flush();
      // A pass that runs late (the process was held up past its renewals) renews this instance's
      // own leases first: a task it is running is not failed or run again as a lost worker's.
      await Promise.all([...this.runs.values()].map((run) => run.renewIfOverdue()));
      await store.failAbandoned();
      while (!this.closed && this.runs.size < this.settings.maxRunning) {
        const claimed = await store.claimNext(this.instanceId, this.settings.leaseMs);
        if (claimed === undefined) break;
        this.resume(store, claimed);
      }
      if (!this.closed) await store.reapExpired();
    } catch (error) {
      this.logger.warn("task recovery pass failed", { error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** A claimed task runs again: its invocation rebuilt from the stored input, its context fresh. */
  private resume(store: TaskStore, claimed: ClaimedTask): void {
    const { task, lease } = claimed;
    const tool = this.byName.get(task.toolName);
    if (tool === undefined) {
      this.logger.error("claimed a task whose tool is not registered here", { taskId: task.id, tool: task.toolName });
      void store.fail(task.id, lease, unknownToolError(task.toolName)).catch(() => undefined);
      return;
    }
    const input = readTaskInput(task.input);
    const runner = this.runner!;
    this.logger.info("task re-run", { taskId: task.id, tool: tool.name, attempt: task.attempt });
    this.launch(store, claimed, tool, input ?? { arguments: {}, answers: {}, capabilities: {} }, async (ctx) => {
      if (input === undefined) throw new Error("the task's stored input is not one this code wrote");
      return runner.restore(tool.component, input, ctx);
    });
  }
}
