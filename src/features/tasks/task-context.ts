import type { InputRequest } from "../../protocol/input-request";
import type { InputResponseSource, RequestContext } from "../../protocol/request-context";

/** The answers `ctx.ask` resolves with: read each with `Elicitation.response` or `Sampling.response`. */
export interface TaskAnswers extends InputResponseSource {
  readonly inputResponses: Readonly<Record<string, unknown>>;
}

/**
 * What a task tool's method receives through `@Ctx() ctx: TaskContext`: the request context of
 * the call that created the task, whose `progress`, `signal` and `log` now belong to the task,
 * plus the task's own operations.
 *
 * - `signal` aborts when the task is cancelled, expires, is taken over by another instance or
 *   the app closes; stop there (a late result is dropped: a cancelled task stays cancelled).
 * - `progress.report(progress, total, message)` records progress; `message`, like `setStatus`,
 *   becomes the `statusMessage` clients read on `tasks/get`. Writes are coalesced and never
 *   throw.
 * - `log` sends nothing: a task has no response stream.
 *
 * When an `"optional"` tool runs as an ordinary call (the client did not declare the tasks
 * extension), `taskId` is undefined, `progress` and `signal` are the request's, `setStatus` does
 * nothing, and `ask` throws -32021 naming the extension.
 *
 * @example const answers = await ctx.ask({ confirm: Elicitation.form("Publish now?", ConfirmForm) });
 */
export interface TaskContext extends RequestContext {
  /** The task's id; undefined when the tool runs as an ordinary call. */
  readonly taskId: string | undefined;
  /**
   * The same on every run of this task (a `"rerun"` task runs again after its process died):
   * key side effects that must happen once on it. An ordinary call gets a fresh one.
   */
  readonly idempotencyKey: string;
  /** 1 on the first run; one more on each re-run. */
  readonly attempt: number;
  /** Sets the status message clients read on `tasks/get` (null clears it). Never throws. */
  setStatus(message: string | null): Promise<void>;
  /**
   * Asks the client through the task and resolves once every key is answered (answers may come
   * in several `tasks/update` requests): the task is `input_required` meanwhile, with these
   * requests in `inputRequests`. Build them with `Elicitation` or `Sampling`. Each key may be
   * asked once in the task's life; on a re-run, a key asked before resolves with the answer the
   * client already gave (or keeps waiting for it), so a method may simply ask again.
   * Rejects with the signal's reason when the task stops, and with -32021 when the client that
   * created the task did not declare the capability a request needs.
   */
  ask(requests: Readonly<Record<string, InputRequest>>, options?: { statusMessage?: string }): Promise<TaskAnswers>;
}
