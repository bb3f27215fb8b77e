import { ErrorCode, McpError } from "../protocol/errors";
import { deepFreeze } from "../protocol/deep-freeze";
import { frozenCopy } from "../protocol/frozen-copy";
import type { InboundRequest } from "../protocol/inbound-request";
import { isPlainObject } from "../protocol/plain-object";
import type { ProgressReporter, RequestContext, RequestLogger } from "../protocol/request-context";

const NO_PROGRESS: ProgressReporter = Object.freeze({ enabled: false, report: async () => {} });
const NO_LOG: RequestLogger = Object.freeze({ level: undefined, log: async () => {} });
const NO_CAPABILITIES = Object.freeze({});

/** Where a context's signal comes from: read only when the context's `signal` is. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/**
 * The framework-owned, frozen context of one request. What the request holds is frozen in place
 * when it is the request's own (`InboundRequest.exclusive`), else copied first, so nothing a
 * component does reaches objects someone else holds. `signal` is read from `source` on first use
 * (most handlers never read it, and an abort signal is costly to make).
 */
export function requestContextOf(request: InboundRequest, source: SignalSource): RequestContext {
  const own = request.exclusive === true ? deepFreeze : frozenCopy;
  return Object.freeze({
    requestMethod: request.method,
    requestParams: own(request.params),
    principal: request.principal,
    clientCapabilities: request.clientCapabilities === undefined ? NO_CAPABILITIES : own(request.clientCapabilities),
    protocolVersion: request.protocolVersion,
    inputResponses: request.inputResponses === undefined ? undefined : own(request.inputResponses as Record<string, unknown>),
    requestState: request.requestState as string | undefined,
    progress: request.progress ?? NO_PROGRESS,
    log: request.log ?? NO_LOG,
    get signal() {
      return source.signal;
    },
  });
}

/**
 * `ctx` with another `requestState`: `{ ...ctx, requestState }`, frozen, except that `signal` is
 * read through `ctx` when it is first read (a spread would read it now, making it for nothing).
 */
export function withRequestState(ctx: RequestContext, requestState: string | undefined): RequestContext {
  const fields = ctx as unknown as Record<PropertyKey, unknown>;
  const next: Record<PropertyKey, unknown> = {};
  for (const key of Object.keys(fields)) if (key !== "signal") next[key] = fields[key];
  for (const key of Object.getOwnPropertySymbols(fields)) if (Object.prototype.propertyIsEnumerable.call(fields, key)) next[key] = fields[key];
  next.requestState = requestState;
  Object.defineProperty(next, "signal", { enumerable: true, get: () => ctx.signal });
  return Object.freeze(next) as unknown as RequestContext;
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
    for (const key of Object.keys(inputResponses)) {
      if (!isPlainObject(inputResponses[key])) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid retry envelope: inputResponses.${key} must be an object`);
      }
    }
  }
}
