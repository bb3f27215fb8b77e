import { ErrorCode, McpError } from "../../protocol/errors";
import { isPlainObject } from "../../protocol/plain-object";
import type { ClientCapabilities } from "../../protocol/wire-types";

/** The tasks extension's identifier (SEP-2663): the key in `capabilities.extensions`, both ways. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** True when these per-request capabilities declare the tasks extension. */
export function declaresTasks(capabilities: Readonly<ClientCapabilities>): boolean {
  return isPlainObject(capabilities.extensions) && isPlainObject(capabilities.extensions[TASKS_EXTENSION]);
}

/**
 * True when a call may be answered with a task: a 2026-07-28 request (it names its protocol
 * version in `_meta`; a 2025-era client has no tasks/* methods to follow up with) that declared
 * the extension.
 */
export function receivesTasks(request: {
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  readonly protocolVersion: string | undefined;
}): boolean {
  return request.protocolVersion !== undefined && declaresTasks(request.clientCapabilities);
}

/** -32021 naming the tasks extension in `data.requiredCapabilities`. */
export function tasksCapabilityMissing(): McpError {
  return new McpError(ErrorCode.MissingRequiredClientCapability, "Missing required client capability", {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}
