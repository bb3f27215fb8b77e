import { missingCapabilities } from "../elicitation/capabilities";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import type { Era, InboundRequest } from "../protocol/inbound-request";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { InputRequest } from "../protocol/input-request";

/**
 * Admission of an `input_required` outcome, with the ORIGINAL request's capabilities (a
 * middleware cannot enlarge them): only from a method that may carry it, never empty, and every
 * input request allowed by what the client declared on this request (else -32021 with
 * `data.requiredCapabilities`). Returns the wire result: exactly resultType, inputRequests and
 * requestState.
 */
export function admitInputRequired(result: JsonObject, request: InboundRequest, mayCarryIt: boolean, logger: AppLogger): JsonObject {
  if (!mayCarryIt) {
    logger.error("input_required returned from a method that cannot carry it", { method: request.method });
    throw new McpError(ErrorCode.InternalError, "Internal error");
  }
  const inputRequests = result.inputRequests as Record<string, InputRequest> | undefined;
  const hasRequests = inputRequests !== undefined && inputRequests !== null && Object.keys(inputRequests).length > 0;
  if (!hasRequests && typeof result.requestState !== "string") {
    logger.error("input_required with neither inputRequests nor requestState", { method: request.method });
    throw new McpError(ErrorCode.InternalError, "Internal error");
  }
  if (hasRequests) requireCapabilities(Object.values(inputRequests), request);
  const out: JsonObject = { resultType: "input_required" };
  if (hasRequests) out.inputRequests = inputRequests;
  if (typeof result.requestState === "string") out.requestState = result.requestState;
  return out;
}

/** What a 2025-era client is told when it cannot be asked (see docs/deployment.md, "2025-era clients"). */
export const LEGACY_NO_INPUT =
  "A 2025-era client over HTTP cannot be asked for input: this server's HTTP transport has no 2025 sessions yet; use stdio or a 2026-07-28 client. " +
  "Over stdio, a 2025-era client is asked only for what it declared at initialize.";

/**
 * What the client declared on the request itself (a middleware's replacement context cannot
 * change it): the capabilities its input requests are admitted against, and its era as the
 * transport decided it (an `InboundRequest` is one).
 */
export interface Declared {
  readonly clientCapabilities: ClientCapabilities;
  readonly era?: Era | undefined;
}

/** The one test of "is this a 2025-era request": the era its transport gave it (2026-07-28 when it gave none). */
export function isLegacy(declared: Declared): boolean {
  return declared.era === "legacy";
}

/**
 * -32021 with `data.requiredCapabilities` when the capabilities the client declared on this
 * request do not allow every one of `requests`.
 */
export function requireCapabilities(requests: Iterable<InputRequest>, declared: Declared): void {
  const missing = missingCapabilities(requests, declared.clientCapabilities);
  if (!missing) return;
  // A 2025-era request over HTTP arrives with no session, so what its client declared at
  // initialize is unknown here: the text must not claim the client left the capability out.
  const message = isLegacy(declared)
    ? `Missing required client capability: ${capabilityNames(missing).join(", ")}. ${LEGACY_NO_INPUT}`
    : "Missing required client capability";
  throw new McpError(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities: missing });
}

export function isInputRequired(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && (value as JsonObject).resultType === "input_required";
}

/** "elicitation", "elicitation.url", "sampling.tools", ... for a ClientCapabilities object. */
function capabilityNames(caps: ClientCapabilities): string[] {
  return Object.entries(caps).flatMap(([key, value]) => {
    const inner = value && typeof value === "object" ? Object.keys(value) : [];
    return inner.length === 0 ? [key] : inner.map((k) => `${key}.${k}`);
  });
}
