import { ErrorCode, McpError } from "../protocol/errors";
import type { ClientCapabilities } from "../protocol/wire-types";

/** Where a request's capabilities were declared: on the request itself (2026-07-28), or at the 2025 initialize. */
export type DeclaredWhere = "request" | "initialize";

/**
 * "elicitation", "elicitation.url", "sampling.tools", "extensions.io.modelcontextprotocol/tasks", ...
 * for a ClientCapabilities object: one name per innermost key the object declares.
 *
 * @example capabilityNames({ elicitation: { form: {}, url: {} } }) // ["elicitation.form", "elicitation.url"]
 */
export function capabilityNames(caps: ClientCapabilities): string[] {
  return Object.entries(caps).flatMap(([key, value]) => {
    const inner = value && typeof value === "object" ? Object.keys(value) : [];
    return inner.length === 0 ? [key] : inner.map((k) => `${key}.${k}`);
  });
}

/** The first revision with URL-mode elicitation (`elicitation.url`); 2025-06-18 and earlier have none. */
export const URL_ELICITATION_SINCE = "2025-11-25";

/**
 * -32021 with `data.requiredCapabilities: missing`, whose message names what is missing and what
 * the client declared. Several clients (the Inspector, the AI SDK) show an error's message and drop
 * its `data`, so the message alone must tell the user what to change. `where` says where the
 * capabilities were declared, `outcome` what a client that declares them gets ("asked" by default).
 * `negotiated`, for capabilities declared at initialize, is the revision the client negotiated:
 * when it predates URL elicitation and `elicitation.url` is missing, declaring it is not what helps
 * (that revision has no such capability), and the message says which revision is needed.
 *
 * @example missingCapabilityError({ elicitation: { url: {} } }, { elicitation: {} }, "request").message
 * // "Missing required client capability: elicitation.url. This request did not declare it in _meta
 * //  io.modelcontextprotocol/clientCapabilities (it declared elicitation); a request that declares
 * //  elicitation.url there is asked."
 */
export function missingCapabilityError(
  missing: ClientCapabilities,
  declared: Readonly<ClientCapabilities>,
  where: DeclaredWhere,
  outcome = "asked",
  negotiated?: string,
): McpError {
  const names = capabilityNames(missing).join(", ");
  const had = capabilityNames(declared).join(", ") || "no capabilities";
  let message: string;
  if (where === "request")
    message =
      `Missing required client capability: ${names}. This request did not declare it in _meta io.modelcontextprotocol/clientCapabilities ` +
      `(it declared ${had}); a request that declares ${names} there is ${outcome}.`;
  else if (predatesUrlElicitation(negotiated) && isUrlMissing(missing))
    message =
      `Missing required client capability: ${names}. This client did not declare it at initialize (it declared ${had}), ` +
      `and the revision it negotiated, ${negotiated}, has no URL elicitation: URL questions need ${URL_ELICITATION_SINCE} or later, ` +
      `so a client that negotiates ${URL_ELICITATION_SINCE} or later and declares ${names} at initialize is ${outcome}.`;
  else
    message =
      `Missing required client capability: ${names}. This client did not declare it at initialize ` +
      `(it declared ${had}); a client that declares ${names} there is ${outcome}.`;
  return new McpError(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities: missing });
}

/** True for a revision before 2025-11-25 (dates compare as text); false when unknown. */
function predatesUrlElicitation(revision: string | undefined): boolean {
  return revision !== undefined && revision < URL_ELICITATION_SINCE;
}

function isUrlMissing(missing: ClientCapabilities): boolean {
  const elicitation = missing.elicitation;
  return typeof elicitation === "object" && elicitation !== null && "url" in elicitation;
}
