import { createHash } from "node:crypto";
import type { InputRequest } from "../protocol/input-request";
import { canonicalJson } from "../protocol/canonical-json";
import { isPlainObject } from "../protocol/plain-object";

// Wording that does not change what a valid answer is: editing it must not re-ask.
const PRESENTATION_KEYWORDS = new Set(["title", "description", "default"]);

/**
 * A stable digest of one question, to pin a carried answer to the question it answered: when
 * the digest changes between rounds, the carried answer no longer applies and the question is
 * asked again. SHA-256 over canonical JSON (object keys sorted; array order kept), base64url,
 * 43 characters.
 *
 * Included: a format version, the key, the method, and
 * - form elicitation: mode "form" (also when `mode` is omitted) and the schema's structure:
 *   property names, types, constraints, formats, enum values and option `const`s, and the
 *   `required` set (order ignored);
 * - URL elicitation: mode "url" and the exact URL;
 * - sampling: all params except `_meta` (the messages are the question);
 * - roots: nothing else.
 * Left out: `message`, `title`, `description`, `default`, option titles, `$schema` and `_meta`,
 * which change how a question reads, not what a valid answer is.
 *
 * @example questionDigest("contact", Elicitation.form("Your e-mail?", ContactDto)) // "3q2-..."
 */
export function questionDigest(key: string, request: InputRequest): string {
  const question: Record<string, unknown> = { v: 1, key, method: request.method };
  const params = (request.params ?? {}) as Record<string, unknown>;
  switch (request.method) {
    case "elicitation/create":
      if (params.mode === "url") {
        question.mode = "url";
        question.url = params.url;
      } else {
        question.mode = "form";
        question.schema = schemaStructure(params.requestedSchema);
      }
      break;
    case "sampling/createMessage":
      question.params = Object.fromEntries(Object.entries(params).filter(([name]) => name !== "_meta"));
      break;
    case "roots/list":
      break;
  }
  return createHash("sha256").update(canonicalJson(question)).digest("base64url");
}

function schemaStructure(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? [...schema.required].map(String).sort() : [];
  return {
    type: schema.type,
    required,
    properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, withoutPresentation(property)])),
  };
}

/** Drops presentation keywords at every level (property, option and items), keeping structure. */
function withoutPresentation(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPresentation);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !PRESENTATION_KEYWORDS.has(name))
      .map(([name, item]) => [name, withoutPresentation(item)]),
  );
}
