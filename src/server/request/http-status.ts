import { isMcpError } from "../../protocol/errors";

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
 * for -32021. A new row (429 with `Retry-After` for a rate limit, 403 for a missing scope) goes
 * here, keyed on the error's code (and `data`).
 */
export function httpStatusOf(code: number, _data?: unknown): HttpStatus {
  return code === -32021 ? BAD_REQUEST : IN_BAND;
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
export function noteHttpStatus(outcome: HttpOutcome, error: unknown): void {
  if (!isMcpError(error)) return;
  const status = httpStatusOf(error.code, error.data);
  if (!sdkAnswersAs(status, error.code)) outcome.status = status;
}
