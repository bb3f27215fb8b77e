import { missingCapabilities } from "../elicitation/capabilities";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import type { Era, InboundRequest } from "../protocol/inbound-request";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { InputRequest } from "../protocol/input-request";
import { UNKNOWN_CAPABILITIES } from "./request-context-of";

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

/** What a 2025-era request outside a session is told when it would have to be asked (see docs/transports.md, "2025-era clients"). */
export const LEGACY_NO_SESSION =
  "This 2025-era request came without a session, so what its client declared at initialize is not known here and it cannot be asked: " +
  "over HTTP, initialize first and send the Mcp-Session-Id this server returns (unless the app turned sessions off); or use stdio or a 2026-07-28 client.";

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
 * request do not allow every one of `requests`. `legacy` (a 2025-era request: capabilities from
 * its initialize) makes the message name what is missing and what the client did declare.
 */
export function requireCapabilities(requests: Iterable<InputRequest>, declared: Declared): void {
  const missing = missingCapabilities(requests, declared.clientCapabilities);
  if (!missing) return;
  let message = "Missing required client capability";
  if (isLegacy(declared)) {
    const names = capabilityNames(missing).join(", ");
    if (declared.clientCapabilities === UNKNOWN_CAPABILITIES) {
      // Outside a session nothing says what the client declared: the text must not claim it left the capability out.
      message = `Missing required client capability: ${names}. ${LEGACY_NO_SESSION}`;
    } else {
      const had = capabilityNames(declared.clientCapabilities).join(", ");
      message =
        `Missing required client capability: ${names}. This client did not declare it at initialize ` +
        `(it declared ${had === "" ? "no capabilities" : had}); a client that declares ${names} there is asked.`;
    }
  }
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
