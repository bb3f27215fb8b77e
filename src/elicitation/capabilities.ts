import type { ClientCapabilities } from "../protocol/wire-types";
import type { InputRequest } from "../protocol/input-request";
import { isPlainObject } from "../protocol/plain-object";

/**
 * The client capabilities `request` needs (MCP 2026-07-28 §2.5.7), in the form used by
 * -32021 `data.requiredCapabilities`:
 * - form elicitation: `{ elicitation: {} }` (a bare `elicitation: {}` means form mode);
 * - URL elicitation: `{ elicitation: { url: {} } }`;
 * - sampling: `{ sampling: {} }`, plus `tools: {}` when the request has `tools` or `toolChoice`,
 *   plus `context: {}` when `includeContext` is set to something other than "none";
 * - roots: `{ roots: {} }`.
 *
 * @example requiredCapabilities(Elicitation.url("Connect", "https://example.com")) // { elicitation: { url: {} } }
 */
export function requiredCapabilities(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case "elicitation/create":
      return isUrlMode(request) ? { elicitation: { url: {} } } : { elicitation: {} };
    case "sampling/createMessage": {
      const sampling: NonNullable<ClientCapabilities["sampling"]> = {};
      if (needsSamplingTools(request)) sampling.tools = {};
      if (needsSamplingContext(request)) sampling.context = {};
      return { sampling };
    }
    case "roots/list":
      return { roots: {} };
  }
}

/**
 * True when capabilities the client declared on this request allow sending `request`:
 * form mode needs `elicitation.form` or an `elicitation` object declaring no mode at all (the
 * backward-compatible bare `{}`); URL mode needs `elicitation.url`; sampling needs `sampling`
 * (and `sampling.tools` / `sampling.context` as in `requiredCapabilities`); roots needs `roots`.
 * Only object values count as declared.
 *
 * @example isAllowedBy(Elicitation.url("Connect", "https://example.com"), { elicitation: {} }) // false
 */
export function isAllowedBy(request: InputRequest, declared: Readonly<ClientCapabilities>): boolean {
  return missingFor(request, declared) === undefined;
}

/**
 * Everything the declared capabilities lack for `requests`, merged into one ClientCapabilities
 * object for -32021 `data.requiredCapabilities`, or undefined when nothing is missing. A missing
 * form mode reads `{ elicitation: {} }`, a missing URL mode `{ elicitation: { url: {} } }`, and
 * both at once `{ elicitation: { form: {}, url: {} } }` (a bare `{}` plus `url` would read as
 * URL-only).
 *
 * @example missingCapabilities([form, sample], { sampling: {} }) // { elicitation: {} }
 */
export function missingCapabilities(
  requests: Iterable<InputRequest>,
  declared: Readonly<ClientCapabilities>,
): ClientCapabilities | undefined {
  let formMissing = false;
  let urlMissing = false;
  let sampling: NonNullable<ClientCapabilities["sampling"]> | undefined;
  let roots = false;
  for (const request of requests) {
    const missing = missingFor(request, declared);
    if (missing === undefined) continue;
    if (missing.elicitation !== undefined) {
      if (missing.elicitation.url !== undefined) urlMissing = true;
      else formMissing = true;
    }
    if (missing.sampling !== undefined) sampling = { ...sampling, ...missing.sampling };
    if (missing.roots !== undefined) roots = true;
  }
  const merged: ClientCapabilities = {};
  if (formMissing || urlMissing) {
    merged.elicitation = formMissing && urlMissing ? { form: {}, url: {} } : urlMissing ? { url: {} } : {};
  }
  if (sampling !== undefined) merged.sampling = sampling;
  if (roots) merged.roots = {};
  return Object.keys(merged).length === 0 ? undefined : merged;
}

/** The part of `requiredCapabilities(request)` the declaration lacks, or undefined. */
function missingFor(request: InputRequest, declared: Readonly<ClientCapabilities>): ClientCapabilities | undefined {
  switch (request.method) {
    case "elicitation/create": {
      const elicitation = declared.elicitation;
      if (isUrlMode(request))
        return isPlainObject(elicitation) && isPlainObject(elicitation.url) ? undefined : { elicitation: { url: {} } };
      const formAllowed =
        isPlainObject(elicitation) &&
        (isPlainObject(elicitation.form) || (elicitation.form === undefined && elicitation.url === undefined));
      return formAllowed ? undefined : { elicitation: {} };
    }
    case "sampling/createMessage": {
      const sampling = declared.sampling;
      if (!isPlainObject(sampling)) return requiredCapabilities(request);
      const lacking: Record<string, object> = {};
      if (needsSamplingTools(request) && !isPlainObject(sampling.tools)) lacking.tools = {};
      if (needsSamplingContext(request) && !isPlainObject(sampling.context)) lacking.context = {};
      return Object.keys(lacking).length === 0 ? undefined : { sampling: lacking };
    }
    case "roots/list":
      return isPlainObject(declared.roots) ? undefined : { roots: {} };
  }
}

function isUrlMode(request: InputRequest): boolean {
  return (request.params as { mode?: unknown } | undefined)?.mode === "url";
}

function needsSamplingTools(request: InputRequest): boolean {
  const params = request.params as { tools?: unknown; toolChoice?: unknown } | undefined;
  return params?.tools !== undefined || params?.toolChoice !== undefined;
}

function needsSamplingContext(request: InputRequest): boolean {
  const includeContext = (request.params as { includeContext?: unknown } | undefined)?.includeContext;
  return includeContext !== undefined && includeContext !== "none";
}
