import type { AppLogger } from "../../protocol/app-logger";
import { canonicalJson } from "../../protocol/canonical-json";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { InboundRequest } from "../../protocol/inbound-request";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import { isTerminal, type TaskRecord } from "../../stores/task-record";
import type { TaskStore } from "../../stores/task-store";
import type { ScopeHierarchy } from "../scope-hierarchy";
import { InsufficientScopeError } from "../../protocol/insufficient-scope-error";
import type { FeatureMethod, MethodSpec } from "../feature-module";
import { outstandingAnswers } from "./task-answers";
import { storeFailure } from "./task-store-failure";
import { detailedTask } from "./task-wire";
import { declaresTasks, tasksCapabilityMissing } from "./tasks-extension";
import { TASK_EFFECT_META } from "./task-meta-keys";

/** Unknown, expired and another principal's task: one answer for all three. */
const UNKNOWN_TASK = "Task not found";
export { TASK_EFFECT_META };

/** Why an answer of a tasks/update was not taken. */
export type IgnoredAnswer = "already-answered" | "not-asked" | "task-finished";

/** The empty acknowledgement, with what the request did under TASK_EFFECT_META. */
function ack(effect: JsonObject): JsonObject {
  return { resultType: "complete", _meta: { [TASK_EFFECT_META]: effect } };
}

/**
 * What a tasks/update did, key by key, read from the task after it: a key is `accepted` when the
 * task holds exactly this answer (taken now, or by an identical earlier answer: a retry is safe);
 * otherwise it is ignored, with the reason. `applied` is true when every key given was accepted.
 */
function updateEffect(task: TaskRecord, responses: Readonly<Record<string, unknown>>): JsonObject {
  const accepted: string[] = [];
  const ignored: Record<string, IgnoredAnswer> = {};
  for (const key of Object.keys(responses)) {
    const held = Object.hasOwn(task.inputResponses, key);
    if (held && canonicalJson(task.inputResponses[key]) === canonicalJson(responses[key])) accepted.push(key);
    else if (held) ignored[key] = "already-answered";
    else if (isTerminal(task.status)) ignored[key] = "task-finished";
    else ignored[key] = "not-asked";
  }
  return { applied: Object.keys(ignored).length === 0, status: task.status, accepted, ignored };
}

const TASK_ID = { type: "string", minLength: 1, maxLength: 256 };
const TASK_PARAMS = { type: "object", properties: { taskId: TASK_ID }, required: ["taskId"] };
const common = { inputRequired: false, nameParam: "taskId", eras: ["modern"] } as const;

/** tasks/get, tasks/update and tasks/cancel as data (the kit's `Mcp-Name` header reads them too). */
export const TASKS_GET: MethodSpec = { ...common, method: "tasks/get", paramsSchema: TASK_PARAMS };
// The SDK lifts `inputResponses` out of the params before it checks them (it is MRTR's reserved
// field), so the schema names taskId only; the answers come as received.
export const TASKS_UPDATE: MethodSpec = { ...common, method: "tasks/update", paramsSchema: TASK_PARAMS };
export const TASKS_CANCEL: MethodSpec = { ...common, method: "tasks/cancel", paramsSchema: TASK_PARAMS };

/**
 * tasks/get, tasks/update and tasks/cancel (SEP-2663). Each refuses a request that did not
 * declare the extension (-32021), then reads or changes the task as the request's principal sees
 * it: a task it cannot see is -32602, exactly like one that does not exist.
 */
export function taskMethods(
  store: () => Promise<TaskStore>,
  logger: AppLogger,
  scopesOf: (toolName: string) => readonly string[],
  scopes: ScopeHierarchy,
): FeatureMethod[] {
  const withTask = async (
    request: InboundRequest,
    operation: string,
    act: (store: TaskStore, taskId: string) => Promise<TaskRecord | undefined>,
  ) => {
    if (!declaresTasks(request.clientCapabilities)) throw tasksCapabilityMissing(request, "served");
    const taskId = request.params.taskId as string;
    let task: TaskRecord | undefined;
    try {
      const opened = await store();
      // A task is read, answered and cancelled with the scopes its tool needs, checked first.
      if (request.authorization !== undefined) {
        const seen = await opened.get(taskId, request.principal);
        if (seen !== undefined && !scopes.allows(scopesOf(seen.toolName), request.authorization))
          throw new InsufficientScopeError(scopesOf(seen.toolName));
      }
      task = await act(opened, taskId);
    } catch (error) {
      if (error instanceof InsufficientScopeError) throw error;
      throw storeFailure(error, logger, operation);
    }
    if (task === undefined) throw new McpError(ErrorCode.InvalidParams, UNKNOWN_TASK);
    return task;
  };
  return [
    {
      ...TASKS_GET,
      handle: async (request) => detailedTask(await withTask(request, "get", (s, id) => s.get(id, request.principal))),
    },
    {
      ...TASKS_UPDATE,
      async handle(request) {
        const responses = request.inputResponses;
        const after = await withTask(request, "update", async (s, id) => {
          if (!isPlainObject(responses))
            throw new McpError(ErrorCode.InvalidParams, "Invalid params for tasks/update: inputResponses must be an object");
          const task = await s.get(id, request.principal);
          if (task === undefined) return undefined;
          // Checked against the questions outstanding now; a key answered meanwhile is ignored by the store.
          const answers = outstandingAnswers(task.inputRequests, responses);
          return Object.keys(answers).length === 0 ? task : ((await s.recordAnswers(id, request.principal, answers)) ?? task);
        });
        return ack(updateEffect(after, responses as Readonly<Record<string, unknown>>));
      },
    },
    {
      ...TASKS_CANCEL,
      async handle(request) {
        const after = await withTask(request, "cancel", (s, id) => s.cancel(id, request.principal));
        // Cancelled now or before: the request's aim holds. Completed or failed: the cancel came too late.
        return ack({ applied: after.status === "cancelled", status: after.status });
      },
    },
  ];
}
