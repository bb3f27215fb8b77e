import type { Server } from "@modelcontextprotocol/server";
import type { FeatureTable } from "../../features/feature-table";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";

// What a 2025-era client is sent, in the shape of the revision it negotiated. The dispatcher and
// the features answer in the 2026-07-28 shape; a 2025 client is told only what its own revision
// has: no resultType, ttlMs or cacheScope on results (2026-07-28 added them), and to a 2025-06-18
// client no icons or tool `execution`, and a form elicitation/create without `mode` (2025-11-25
// added it), a titled choice as `enum` with `enumNames`; a URL question, which only a client that
// declared `elicitation.url` is sent, keeps its 2025-11-25 shape.

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
 * 2025-11-25 on; before it, a form without `mode`, and a titled single choice (`oneOf: [{ const,
 * title }]`) as `enum` with `enumNames`, the shape 2025-06-18 knows. A URL question goes whole
 * (`mode`, `url`, `elicitationId`): it reaches such a client only when the client declared
 * `elicitation.url` at initialize (Codex does at 2025-06-18), and that is the only shape a URL
 * question has; without `mode` it would be neither a form nor a URL question.
 */
export function legacyElicitParams(params: JsonObject, version: string | undefined): JsonObject {
  if (!before20251125(version) || !isPlainObject(params) || params.mode === "url") return params;
  const out = without(params, ["mode", "elicitationId"]);
  const schema = out.requestedSchema;
  if (isPlainObject(schema) && isPlainObject(schema.properties)) {
    const properties: JsonObject = {};
    for (const [name, property] of Object.entries(schema.properties)) properties[name] = titledChoiceAsEnum(property);
    out.requestedSchema = { ...schema, properties };
  }
  return out;
}

/** Per app: each tool's advertised outputSchema, for the 2025 projection of its results. */
const outputSchemas = new WeakMap<FeatureTable, ReadonlyMap<string, JsonObject>>();

/**
 * A result for a 2025-era request in its revision's shape (`legacyResult`); a tool's result also
 * through the SDK's projection for that era (`projectCallToolResult`): a `structuredContent` that
 * is not an object, or whose outputSchema's root is not an object, goes as `{ result: … }`, as the
 * SDK's 2025 codec lists that outputSchema (wrapped), with its text fallback.
 */
export function legacyAnswer(
  server: Server,
  features: FeatureTable,
  method: string,
  request: { params?: JsonObject },
  result: JsonObject,
): JsonObject {
  const shaped = legacyResult(method, result, server.getNegotiatedProtocolVersion());
  if (method !== "tools/call" || shaped.resultType === "input_required" || !("structuredContent" in shaped)) return shaped;
  let schemas = outputSchemas.get(features);
  if (schemas === undefined) {
    schemas = new Map(
      features.components
        .filter((c) => c.ref.kind === "tool" && c.descriptor.outputSchema !== undefined)
        .map((c) => [c.ref.name, c.descriptor.outputSchema as JsonObject]),
    );
    outputSchemas.set(features, schemas);
  }
  const name = request.params?.name;
  return server.projectCallToolResult(shaped as never, typeof name === "string" ? (schemas.get(name) as never) : undefined) as JsonObject;
}

/**
 * The questions the SDK's compatibility path sends a 2025 client (`elicitation/create` requests), in
 * the shape of the revision the client negotiated (`legacyElicitParams`): the SDK writes `mode` on
 * every form, which a 2025-06-18 client does not know.
 */
export function shapeElicitations(server: Server): void {
  const send = server.request.bind(server) as (request: { method: string; params?: JsonObject }, ...rest: unknown[]) => Promise<unknown>;
  server.request = ((request: { method: string; params?: JsonObject }, ...rest: unknown[]) =>
    send(
      request.method === "elicitation/create" && request.params !== undefined
        ? { ...request, params: legacyElicitParams(request.params, server.getNegotiatedProtocolVersion()) }
        : request,
      ...rest,
    )) as Server["request"];
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
