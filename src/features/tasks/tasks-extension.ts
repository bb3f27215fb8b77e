import { missingCapabilityError } from "../../elicitation/missing-capability";
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

/** What a 2025-era client is told about a tool that runs only as a task. */
export const LEGACY_TASK_TOOL =
  "Missing required client capability: extensions.io.modelcontextprotocol/tasks. This tool runs only as a task, and a 2025-era " +
  "client cannot receive one: call it from a 2026-07-28 client that declares the tasks extension (io.modelcontextprotocol/tasks).";

/**
 * -32021 naming the tasks extension in `data.requiredCapabilities`, and in its message what the
 * request declared and what declaring the extension gets it (`outcome`: "answered with a task" by
 * default). To a request of the 2025 era (no protocol version in its `_meta`), whose client can
 * never declare the extension, the message says a 2026-07-28 client is needed.
 */
export function tasksCapabilityMissing(
  request: { readonly protocolVersion?: string | undefined; readonly clientCapabilities: Readonly<ClientCapabilities> },
  outcome = "answered with a task",
): McpError {
  const requiredCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };
  if (request.protocolVersion === undefined)
    return new McpError(ErrorCode.MissingRequiredClientCapability, LEGACY_TASK_TOOL, { requiredCapabilities });
  return missingCapabilityError(requiredCapabilities, request.clientCapabilities, "request", outcome);
}
