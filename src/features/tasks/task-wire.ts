import type { TaskRecord } from "../../stores/task-record";
import type { JsonObject } from "../../protocol/wire-types";

/** The Task fields every task message carries (SEP-2663 `Task`). */
function taskFields(task: TaskRecord): JsonObject {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined && { pollIntervalMs: task.pollIntervalMs }),
  };
}

/** What `tools/call` answers when it hands the call over to a task: flat, with nothing inlined. */
export function createTaskResult(task: TaskRecord): JsonObject {
  return { resultType: "task", ...taskFields(task) };
}

/**
 * What `tasks/get` answers (a DetailedTask): the task, with what its status calls for inlined:
 * the outstanding `inputRequests`, the `result`, or the `error` (and, when the task set no
 * message of its own, the error's message as its `statusMessage`).
 */
export function detailedTask(task: TaskRecord): JsonObject {
  const fields = taskFields(task);
  switch (task.status) {
    case "input_required":
      return { resultType: "complete", ...fields, inputRequests: task.inputRequests };
    case "completed":
      return { resultType: "complete", ...fields, result: task.result ?? null };
    case "failed": {
      const error = task.error ?? { code: -32603, message: "Internal error" };
      return { resultType: "complete", statusMessage: error.message, ...fields, error };
    }
    default:
      return { resultType: "complete", ...fields };
  }
}
