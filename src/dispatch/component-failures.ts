import { randomUUID } from "node:crypto";
import type { ComponentDefinition, FailureReport } from "../features/component-definition";
import { isToolError } from "../features/tool-error";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, isMcpError, McpError } from "../protocol/errors";
import type { RequestContext } from "../protocol/request-context";
import type { JsonObject } from "../protocol/wire-types";
import { StateTooLargeError } from "../state/state-too-large-error";
import { HandlerTimeout } from "./request-deadline";

/** The wire message of a state too large to seal (-32602). */
export const STATE_TOO_LARGE_MESSAGE = "Request state too large: the answers so far do not fit in requestState; give shorter answers";

export interface FailureOptions {
  readonly logger: AppLogger;
  /** Development only: let the message of an unexpected error reach the client. */
  readonly exposeErrors: boolean;
}

/**
 * What an error thrown by a component round becomes. Typed errors (`McpError`) reach the wire as
 * they are; a timeout is -32603 "Request timed out"; a state too large to seal is -32602. Anything
 * else is unexpected: it gets an error id, goes to the app's logger at error level with its
 * message and stack, and the client hears only of the id (a tool's `isError` text, or -32603 with
 * `data.errorId`), unless the app exposes error details. A `ToolError` is deliberate: its message
 * is the tool's answer.
 */
export function settleFailure(def: ComponentDefinition, ctx: RequestContext, error: unknown, options: FailureOptions): JsonObject {
  if (isMcpError(error)) throw error;
  const where = { component: def.where, method: ctx.requestMethod };
  if (error instanceof HandlerTimeout) {
    options.logger.warn("component timed out", { ...where, timeoutMs: error.timeoutMs });
    throw new McpError(ErrorCode.InternalError, "Request timed out", { timeoutMs: error.timeoutMs });
  }
  if (error instanceof StateTooLargeError) {
    options.logger.warn("requestState too large to seal", { ...where, size: error.size, limit: error.limit });
    throw new McpError(ErrorCode.InvalidParams, STATE_TOO_LARGE_MESSAGE, { limit: error.limit });
  }
  if (isToolError(error)) {
    const answered = def.recover(error, { errorId: "", text: error.message });
    if (answered) return answered;
  }
  const errorId = randomUUID();
  const message = error instanceof Error ? error.message : String(error);
  options.logger.error("component failed", {
    ...where,
    errorId,
    error: message,
    ...(error instanceof Error && { name: error.name, stack: error.stack }),
  });
  const report: FailureReport = {
    errorId,
    text: options.exposeErrors ? message : `Unexpected error (error id ${errorId}); the details are in the server's log.`,
  };
  const recovered = def.recover(error, report);
  if (recovered) return recovered;
  throw new McpError(ErrorCode.InternalError, options.exposeErrors ? `Internal error: ${message}` : "Internal error", { errorId });
}
