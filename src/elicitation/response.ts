import type { InputResponseSource } from "../protocol/request-context";
import type { ElicitationContent, FormPropertySchema } from "../protocol/form-schema";
import { formValueViolation } from "../schema/form-value-check";
import { assertInputRequest } from "./input-request-shape";
import { inputResponseEntry, invalidInputResponse, type InputAnswer } from "./input-response-entry";
import { isPlainObject, setOwn } from "../protocol/plain-object";
import type { ElicitRequest, FormElicitRequest, UrlElicitRequest } from "../protocol/elicit-request";

/** The -32602 message for any invalid elicitation answer. */
export const INVALID_ELICITATION_RESPONSE = "Invalid elicitation response";

const ACTIONS = ["accept", "decline", "cancel"];

/**
 * Reads this round's answer to `request` under `key` (see `Elicitation.response`): missing,
 * refused (declined, or dismissed without a choice), or accepted. A form's accepted answer has
 * `content` validated against the schema (holding only the schema's properties); a URL's has none:
 * consent only, whether the outside step finished is for you to check.
 *
 * @example const answer = elicitationResponse(ctx, "contact", request);
 */
export function elicitationResponse(
  source: InputResponseSource,
  key: string,
  request: FormElicitRequest,
): InputAnswer<{ action: "accept"; content: ElicitationContent } | { action: "decline" } | { action: "cancel" }>;
export function elicitationResponse(
  source: InputResponseSource,
  key: string,
  request: UrlElicitRequest,
): InputAnswer<{ action: "accept" } | { action: "decline" } | { action: "cancel" }>;
export function elicitationResponse(
  source: InputResponseSource,
  key: string,
  request: ElicitRequest,
): InputAnswer<{ action: "accept"; content: ElicitationContent } | { action: "accept" } | { action: "decline" } | { action: "cancel" }>;
export function elicitationResponse(
  source: InputResponseSource,
  key: string,
  request: ElicitRequest,
): InputAnswer<{ action: "accept"; content: ElicitationContent } | { action: "accept" } | { action: "decline" } | { action: "cancel" }> {
  assertInputRequest(request, "elicitation request");
  if (request.method !== "elicitation/create") {
    throw new TypeError(`Elicitation.response reads elicitation/create answers, not ${request.method}`);
  }
  const found = inputResponseEntry(source, key, INVALID_ELICITATION_RESPONSE);
  if (found === undefined) return { status: "missing" };
  const invalid = (reason: string) => invalidInputResponse(INVALID_ELICITATION_RESPONSE, key, reason);
  const entry = found.entry;
  if (!isPlainObject(entry)) throw invalid("entry: not an object");
  if (typeof entry.action !== "string" || !ACTIONS.includes(entry.action)) {
    throw invalid("action: not one of accept, decline, cancel");
  }
  // content is normally absent on decline/cancel and meaningless there; it is not read.
  if (entry.action === "decline") return { status: "answered", action: "decline" };
  if (entry.action === "cancel") return { status: "answered", action: "cancel" };
  if (request.params.mode === "url") return { status: "answered", action: "accept" };
  const schema = request.params.requestedSchema;
  return { status: "answered", action: "accept", content: acceptedContent(entry.content, schema, invalid) };
}

function acceptedContent(
  content: unknown,
  schema: FormElicitRequest["params"]["requestedSchema"],
  invalid: (reason: string) => Error,
): ElicitationContent {
  // An accept without content is an empty submission: fine unless something is required.
  const submitted = content === undefined ? {} : content;
  if (!isPlainObject(submitted)) throw invalid("content: not an object");
  const properties = schema.properties as Readonly<Record<string, FormPropertySchema>>;
  const required = schema.required ?? NONE;
  const kept: ElicitationContent = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!hasOwn(submitted, name) || submitted[name] === undefined) {
      if (required.includes(name)) throw invalid(`content.${name}: required`);
      continue; // defaults are the client's to pre-fill, never the server's to assume
    }
    const violation = formValueViolation(property, submitted[name]);
    if (violation !== undefined) throw invalid(`content.${name}: ${violation}`);
    const value = submitted[name] as ElicitationContent[string];
    setOwn(kept, name, Array.isArray(value) ? [...value] : value);
  }
  // Keys the schema does not declare are dropped, but must still be wire-shaped (flat values).
  for (const name of Object.keys(submitted)) {
    if (!hasOwn(properties, name) && !isFlatValue(submitted[name])) throw invalid("content: not a flat object");
  }
  return kept;
}

const NONE: readonly string[] = [];

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** ElicitResult.content values: string, finite number, boolean or array of strings. */
function isFlatValue(value: unknown): boolean {
  return (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((item) => typeof item === "string"))
  );
}
