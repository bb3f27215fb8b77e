import { randomBytes } from "node:crypto";
import type { RequestContext } from "../../protocol/request-context";
import type { TaskContext } from "./task-context";
import { tasksCapabilityMissing } from "./tasks-extension";

/**
 * The context of an `"optional"` task tool run as an ordinary call (its client did not declare the
 * tasks extension): the request's own context, no task id, a fresh idempotency key, and an `ask`
 * that refuses with -32021 naming the extension (asking mid-run needs a task).
 */
export function inlineTaskContext(ctx: RequestContext): TaskContext {
  return Object.freeze({
    requestMethod: ctx.requestMethod,
    requestParams: ctx.requestParams,
    principal: ctx.principal,
    authorization: ctx.authorization,
    clientCapabilities: ctx.clientCapabilities,
    protocolVersion: ctx.protocolVersion,
    inputResponses: ctx.inputResponses,
    requestState: ctx.requestState,
    progress: ctx.progress,
    log: ctx.log,
    signal: ctx.signal,
    taskId: undefined,
    idempotencyKey: randomBytes(16).toString("base64url"),
    attempt: 1,
    setStatus: async () => {},
    ask: async () => {
      throw tasksCapabilityMissing(ctx, "run as a task, which can ask for input while it runs");
    },
  });
}
