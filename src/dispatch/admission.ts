import { missingCapabilities } from "../elicitation/capabilities";
import { withElicitationIds } from "../elicitation/elicitation-id";
import { capabilityNames, missingCapabilityError } from "../elicitation/missing-capability";
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
 * requestState, every URL question with an `elicitationId`.
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
  // A hand-written URL question without an id gets one of its principal, URL and key (an @Elicit one has its flow's already).
  if (hasRequests) out.inputRequests = withElicitationIds(inputRequests, (_key, url) => `${request.principal ?? ""}\0${url.params.url}`);
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
  /** A 2025-era request: the revision its client negotiated at initialize, when known. */
  readonly negotiatedVersion?: string | undefined;
}

/** What `request` declared, with the capabilities its context was given (the request's own: middleware cannot change them). */
export function declaredBy(request: InboundRequest, clientCapabilities: ClientCapabilities): Declared {
  return { clientCapabilities, era: request.era, negotiatedVersion: request.negotiatedVersion };
}

/** The one test of "is this a 2025-era request": the era its transport gave it (2026-07-28 when it gave none). */
export function isLegacy(declared: Declared): boolean {
  return declared.era === "legacy";
}

/**
 * -32021 with `data.requiredCapabilities` when the capabilities the client declared on this
 * request do not allow every one of `requests`. The message names what is missing and what the
 * client declared, on its request (2026-07-28) or at initialize (a 2025-era request, with the
 * revision it would need when its own cannot express the question: URL mode before 2025-11-25).
 */
export function requireCapabilities(requests: Iterable<InputRequest>, declared: Declared): void {
  const missing = missingCapabilities(requests, declared.clientCapabilities);
  if (!missing) return;
  if (isLegacy(declared) && declared.clientCapabilities === UNKNOWN_CAPABILITIES) {
    // Outside a session nothing says what the client declared: the text must not claim it left the capability out.
    const names = capabilityNames(missing).join(", ");
    throw new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${names}. ${LEGACY_NO_SESSION}`, {
      requiredCapabilities: missing,
    });
  }
  throw isLegacy(declared)
    ? missingCapabilityError(missing, declared.clientCapabilities, "initialize", undefined, declared.negotiatedVersion)
    : missingCapabilityError(missing, declared.clientCapabilities, "request");
}

export function isInputRequired(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && (value as JsonObject).resultType === "input_required";
}
