import { ErrorCode, McpError } from "../protocol/errors";
import { deepFreeze } from "../protocol/deep-freeze";
import { frozenCopy } from "../protocol/frozen-copy";
import type { InboundRequest } from "../protocol/inbound-request";
import { isPlainObject } from "../protocol/plain-object";
import { NO_LOG, NO_PROGRESS, type RequestContext } from "../protocol/request-context";
import { STATE_LIFETIME, stateLifetimeOf } from "../protocol/state-lifetime";

const NO_CAPABILITIES = Object.freeze({});
/** The capabilities of a request whose transport cannot know them (`InboundRequest.capabilitiesUnknown`): told apart by identity. */
export const UNKNOWN_CAPABILITIES = Object.freeze({});

/** Where a context's signal comes from: read only when the context's `signal` is. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

const SIGNAL_SOURCE = Symbol("signal source");

/**
 * The context's `signal`: an own, enumerable accessor (so `{ ...ctx }` copies the signal, as it
 * copies every field), one getter shared by every context, reading the context's source. A getter
 * written in an object literal would cost a new function and a map of its own per request.
 */
const LAZY_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: { readonly [SIGNAL_SOURCE]: SignalSource }): AbortSignal {
    return this[SIGNAL_SOURCE].signal;
  },
};

function withLazySignal<T extends object>(fields: T): RequestContext {
  Object.defineProperty(fields, "signal", LAZY_SIGNAL);
  // as unknown as: `signal` is added by defineProperty (a lazy getter), which no type of `fields` records.
  return Object.freeze(fields) as unknown as RequestContext;
}

/**
 * The framework-owned, frozen context of one request. What the request holds is frozen in place
 * when it is the request's own (`InboundRequest.exclusive`), else copied first, so nothing a
 * component does reaches objects someone else holds. `signal` is read from `source` on first use
 * (most handlers never read it, and an abort signal is costly to make).
 */
export function requestContextOf(request: InboundRequest, source: SignalSource): RequestContext {
  const own = request.exclusive === true ? deepFreeze : frozenCopy;
  return withLazySignal({
    requestMethod: request.method,
    requestParams: own(request.params),
    principal: request.principal,
    authorization: request.authorization,
    clientCapabilities: request.capabilitiesUnknown
      ? UNKNOWN_CAPABILITIES
      : request.clientCapabilities === undefined
        ? NO_CAPABILITIES
        : own(request.clientCapabilities),
    protocolVersion: request.protocolVersion,
    inputResponses: request.inputResponses === undefined ? undefined : own(request.inputResponses as Record<string, unknown>),
    requestState: request.requestState as string | undefined,
    progress: request.progress ?? NO_PROGRESS,
    log: request.log ?? NO_LOG,
    // Always written (undefined but in a 2025 session's rounds), so every context has one shape.
    [STATE_LIFETIME]: request.stateLifetimeSeconds,
    [SIGNAL_SOURCE]: source,
  });
}

/**
 * `ctx` with another `requestState`: `{ ...ctx, requestState }`, frozen, except that a context the
 * framework made keeps its signal unmade (a spread would read it now, making it for nothing).
 */
export function withRequestState(ctx: RequestContext, requestState: string | undefined): RequestContext {
  const made = ctx as RequestContext & { readonly [SIGNAL_SOURCE]?: SignalSource };
  const source = made[SIGNAL_SOURCE];
  if (source === undefined || Object.getOwnPropertyDescriptor(ctx, "signal")?.get !== LAZY_SIGNAL.get)
    return Object.freeze({ ...ctx, requestState });
  // Every field as `requestContextOf` wrote it, in its order (one literal, the same shape), but the
  // signal's getter (not read).
  return withLazySignal({
    requestMethod: ctx.requestMethod,
    requestParams: ctx.requestParams,
    principal: ctx.principal,
    authorization: ctx.authorization,
    clientCapabilities: ctx.clientCapabilities,
    protocolVersion: ctx.protocolVersion,
    inputResponses: ctx.inputResponses,
    requestState,
    progress: ctx.progress,
    log: ctx.log,
    [STATE_LIFETIME]: stateLifetimeOf(ctx),
    [SIGNAL_SOURCE]: source,
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
    for (const key of Object.keys(inputResponses)) {
      if (!isPlainObject(inputResponses[key])) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid retry envelope: inputResponses.${key} must be an object`);
      }
    }
  }
}
