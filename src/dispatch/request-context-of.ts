import { ErrorCode, McpError } from "../protocol/errors";
import { frozenCopy } from "../protocol/frozen-copy";
import type { InboundRequest } from "../protocol/inbound-request";
import { isPlainObject } from "../protocol/plain-object";
import type { ProgressReporter, RequestContext, RequestLogger } from "../protocol/request-context";

const NO_PROGRESS: ProgressReporter = Object.freeze({ enabled: false, report: async () => {} });
const NO_LOG: RequestLogger = Object.freeze({ level: undefined, log: async () => {} });
const NEVER_ABORTED = new AbortController().signal;

/** The framework-owned, frozen context of one request: copies, so nothing a component does reaches the transport's objects. */
export function requestContextOf(request: InboundRequest): RequestContext {
  return Object.freeze({
    requestMethod: request.method,
    requestParams: frozenCopy(request.params),
    principal: request.principal,
    clientCapabilities: frozenCopy(request.clientCapabilities ?? {}),
    protocolVersion: request.protocolVersion,
    inputResponses: request.inputResponses === undefined ? undefined : frozenCopy(request.inputResponses as Record<string, unknown>),
    requestState: request.requestState as string | undefined,
    progress: request.progress ?? NO_PROGRESS,
    log: request.log ?? NO_LOG,
    signal: request.signal ?? NEVER_ABORTED,
  });
}

/** A malformed retry envelope is refused (-32602) before the component runs. */
export function checkRetryEnvelope(request: InboundRequest): void {
  const { requestState, inputResponses } = request;
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new McpError(ErrorCode.InvalidParams, "Invalid retry envelope: requestState must be a string");
  }
  if (inputResponses !== undefined) {
    if (!isPlainObject(inputResponses)) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid retry envelope: inputResponses must be an object");
    }
    for (const [key, entry] of Object.entries(inputResponses)) {
      if (!isPlainObject(entry)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid retry envelope: inputResponses.${key} must be an object`);
      }
    }
  }
}
