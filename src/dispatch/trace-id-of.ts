import type { InboundRequest } from "../protocol/inbound-request";
import { isPlainObject } from "../protocol/plain-object";

const TRACE_ID = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;
const INVALID_TRACE_ID = "0".repeat(32);

/** The trace id of the W3C `traceparent` in a request's `params._meta`, for log entries when no span is made. */
export function traceIdOf(request: InboundRequest): string | undefined {
  const meta = request.params._meta;
  if (!isPlainObject(meta) || typeof meta.traceparent !== "string") return undefined;
  const id = TRACE_ID.exec(meta.traceparent)?.[1];
  return id === INVALID_TRACE_ID ? undefined : id;
}
