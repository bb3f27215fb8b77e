import { isPlainObject } from "../../protocol/plain-object";
import type { ClientCapabilities } from "../../protocol/wire-types";
import type { ElicitResult } from "../../protocol/elicit-request";
import type { JsonValue } from "../../stores/json-value";
import type { RecordedInvocation } from "../component-runner";

/**
 * What a task keeps as its input: the invocation it was made from and what the client declared,
 * so any instance can run it again without the request that created it.
 */
export interface TaskInput {
  readonly arguments: JsonValue;
  readonly answers: Readonly<Record<string, ElicitResult>>;
  readonly operationId?: string;
  readonly capabilities: ClientCapabilities;
  readonly protocolVersion?: string;
}

export function taskInput(recorded: RecordedInvocation, capabilities: ClientCapabilities, protocolVersion: string | undefined): TaskInput {
  return {
    arguments: (recorded.arguments ?? {}) as JsonValue,
    answers: recorded.answers,
    ...(recorded.operationId !== undefined && { operationId: recorded.operationId }),
    capabilities,
    ...(protocolVersion !== undefined && { protocolVersion }),
  };
}

/** The stored input read back; undefined when it is not one this code wrote. */
export function readTaskInput(stored: JsonValue): TaskInput | undefined {
  if (!isPlainObject(stored) || !isPlainObject(stored.answers) || !isPlainObject(stored.capabilities)) return undefined;
  if (stored.protocolVersion !== undefined && typeof stored.protocolVersion !== "string") return undefined;
  if (stored.operationId !== undefined && typeof stored.operationId !== "string") return undefined;
  // as unknown as: the checks above cover the fields read back; JsonObject's index signature cannot narrow to TaskInput.
  return stored as unknown as TaskInput;
}
