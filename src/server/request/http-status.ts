import { ErrorCode, isMcpError } from "../../protocol/errors";

/** The `WWW-Authenticate` value of a 403 for a token lacking `required` (an entry's, with OAuth). */
export type ScopeChallenge = (required: readonly string[]) => string;

/** The HTTP status of an answer, and headers it adds (`Retry-After`, `WWW-Authenticate`). */
export interface HttpStatus {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

const IN_BAND: HttpStatus = Object.freeze({ status: 200 });
const BAD_REQUEST: HttpStatus = Object.freeze({ status: 400 });

/**
 * The HTTP status a JSON-RPC error the dispatcher threw is answered with: one table for the lane
 * (`FastLane`, which writes it) and the SDK path (the SDK bridge notes it in `HttpOutcome`, the
 * answerer applies it). Today the SDK's own (`httpStatusForErrorCode`, in-band): 200, and 400
 * for -32021; 429 with `Retry-After` for a rate limit (-32010); 403 for a missing scope (-32003,
 * challenged with `challenge`, the entry's, when it has OAuth). A new row goes here, keyed on the
 * error's code (and `data`).
 */
export function httpStatusOf(code: number, data?: unknown, challenge?: ScopeChallenge): HttpStatus {
  if (code === ErrorCode.RateLimited) return tooManyRequests(data);
  if (code === -32003) return insufficientScope(data, challenge);
  return code === -32021 ? BAD_REQUEST : IN_BAND;
}

/** 429 with `Retry-After` in whole seconds: the rate limiter's `data.retryAfter` (1 when absent or odd). */
function tooManyRequests(data: unknown): HttpStatus {
  const seconds = (data as { retryAfter?: unknown } | null | undefined)?.retryAfter;
  const retryAfter = typeof seconds === "number" && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : 1;
  return { status: 429, headers: { "retry-after": String(retryAfter) } };
}

/**
 * -32003 thrown by the dispatcher (a task method whose task's tool needs more scopes, a completion
 * of a scoped component's argument): 403 with the insufficient_scope challenge naming them; on an
 * entry with OAuth the same challenge, `resource_metadata` included, as the refusals made before
 * dispatch (`http/http-auth.ts`). Without OAuth (an InsufficientScopeError of the app's own) there
 * is no metadata to point at.
 */
function insufficientScope(data: unknown, challenge: ScopeChallenge | undefined): HttpStatus {
  const scopes = (data as { requiredScopes?: unknown } | undefined)?.requiredScopes;
  const list = Array.isArray(scopes)
    ? scopes.filter((s): s is string => typeof s === "string" && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
    : [];
  const value = challenge !== undefined ? challenge(list) : `Bearer error="insufficient_scope", scope="${list.join(" ")}"`;
  return { status: 403, headers: { "www-authenticate": value } };
}

/** Whether the SDK path already answers this status itself (so the answerer changes nothing). */
export function sdkAnswersAs(status: HttpStatus, code: number): boolean {
  return status.headers === undefined && status.status === (code === -32021 ? 400 : 200);
}

/**
 * Per HTTP request on the SDK path: the status the dispatcher's error asks for, when it is not
 * the one the SDK writes; set by the SDK bridge, applied by the HTTP answerer.
 */
export interface HttpOutcome {
  status?: HttpStatus;
}

/** Notes in `outcome` the status `error` is answered with, when the SDK would write another. */
export function noteHttpStatus(outcome: HttpOutcome, error: unknown, challenge?: ScopeChallenge): void {
  if (!isMcpError(error)) return;
  const status = httpStatusOf(error.code, error.data, challenge);
  if (!sdkAnswersAs(status, error.code)) outcome.status = status;
}
