import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";

// What a 2025-era client is sent, in the shape of the revision it negotiated. The dispatcher and
// the features answer in the 2026-07-28 shape; a 2025 client is told only what its own revision
// has: no resultType, ttlMs or cacheScope on results (2026-07-28 added them), and to a 2025-06-18
// client no icons or tool `execution`, and an elicitation/create without `mode` and
// `elicitationId` (2025-11-25 added them), a titled choice as `enum` with `enumNames`.

/** Fields 2026-07-28 added to every result (`resultType`) and to cacheable ones. */
const MODERN_RESULT_FIELDS = ["resultType", "ttlMs", "cacheScope"] as const;

/** The entries of a list result, by method. */
const LISTED: Readonly<Record<string, string>> = {
  "tools/list": "tools",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
  "prompts/list": "prompts",
};

/**
 * True for a revision before 2025-11-25 (2025-06-18, 2025-03-26, 2024-11-05). Undefined (a 2025
 * request served without a session, whose revision nothing recorded) reads as 2025-11-25.
 */
export function before20251125(version: string | undefined): boolean {
  return version !== undefined && version < "2025-11-25";
}

/**
 * A complete result of `method` in the shape of `version`, a 2025-era revision; the same object when
 * nothing needs to change. An `input_required` result passes unchanged: the SDK's compatibility
 * path turns it into requests of the 2025 era before any of it reaches the client.
 */
export function legacyResult(method: string, result: JsonObject, version: string | undefined): JsonObject {
  if (!isPlainObject(result) || result.resultType === "input_required") return result;
  let out = result;
  for (const key of MODERN_RESULT_FIELDS) {
    if (key in out) {
      if (out === result) out = { ...result };
      delete out[key];
    }
  }
  const listKey = LISTED[method];
  const entries = listKey === undefined ? undefined : out[listKey];
  if (before20251125(version) && Array.isArray(entries) && entries.some((e) => isPlainObject(e) && ("icons" in e || "execution" in e))) {
    out = { ...out, [listKey!]: entries.map((e) => (isPlainObject(e) ? without(e, ["icons", "execution"]) : e)) };
  }
  return out;
}

/**
 * The params of an `elicitation/create` sent to a 2025-era client of `version`: unchanged from
 * 2025-11-25 on; before it without `mode` and `elicitationId`, and a titled single choice
 * (`oneOf: [{ const, title }]`) as `enum` with `enumNames`, the shape 2025-06-18 knows.
 */
export function legacyElicitParams(params: JsonObject, version: string | undefined): JsonObject {
  if (!before20251125(version) || !isPlainObject(params)) return params;
  const out = without(params, ["mode", "elicitationId"]);
  const schema = out.requestedSchema;
  if (isPlainObject(schema) && isPlainObject(schema.properties)) {
    const properties: JsonObject = {};
    for (const [name, property] of Object.entries(schema.properties)) properties[name] = titledChoiceAsEnum(property);
    out.requestedSchema = { ...schema, properties };
  }
  return out;
}

function titledChoiceAsEnum(property: unknown): unknown {
  if (!isPlainObject(property) || property.type !== "string" || !Array.isArray(property.oneOf)) return property;
  const options = property.oneOf.filter(isPlainObject);
  const { oneOf: _oneOf, ...rest } = property;
  return { ...rest, enum: options.map((o) => o.const), enumNames: options.map((o) => o.title ?? o.const) };
}

function without(object: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(object)) if (!keys.includes(key)) out[key] = object[key];
  return out;
}
