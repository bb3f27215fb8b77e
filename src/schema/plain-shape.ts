/*
 * A check of the framework's own plain shapes (the params shapes of the built-in methods, an
 * argument-less tool's input) without ajv, so a server that serves only those loads ajv only when
 * a user's schema first needs it (issue 24). It reads the subset of JSON Schema those shapes use
 * (`type` "object" or "string", `required`, `properties`, `additionalProperties` false or a
 * schema) and reports what ajv reports, in ajv's order and in ajv's words: the type first, then
 * `required` (in its order), `additionalProperties` (keys in `for…in` order), `properties` (in
 * their order); the first error only unless all are asked for. Any other keyword or value is not
 * plain: `plainShape` answers undefined and ajv compiles the schema. Pinned equal to ajv by
 * test/unit/schema/plain-shape.property.test.ts (fast-check).
 */
import type { JsonObject } from "../protocol/wire-types";

/** One error as ajv gives it, with what json-schema-validator.ts reads of it. */
export interface ShapeError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: { readonly missingProperty?: string };
  readonly message: string;
}

/** Appends the errors of `value` (at `path`) to `errors`; true when it has none. `all`: every error, else the first. */
type Check = (value: unknown, path: string, errors: ShapeError[], all: boolean) => boolean;

const KEYWORDS = new Set(["type", "required", "properties", "additionalProperties"]);

/** A JSON Pointer segment, as ajv writes it in `instancePath`. */
function segment(key: string): string {
  return "/" + key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The check of `schema`, or undefined when it uses anything outside the plain subset. */
function compileShape(schema: unknown): Check | undefined {
  if (!isObject(schema) || Object.keys(schema).some((k) => !KEYWORDS.has(k))) return undefined;
  const { type, required, properties, additionalProperties } = schema;
  if (type !== "object" && type !== "string") return undefined;
  if (type === "string") {
    if (Object.keys(schema).length !== 1) return undefined;
    return (value, path, errors) =>
      typeof value === "string" || (errors.push({ instancePath: path, keyword: "type", params: {}, message: "must be string" }), false);
  }
  if (required !== undefined && (!Array.isArray(required) || required.some((r) => typeof r !== "string"))) return undefined;
  if (properties !== undefined && !isObject(properties)) return undefined;
  const props: [string, Check][] = [];
  for (const [name, sub] of Object.entries(properties ?? {})) {
    const check = compileShape(sub);
    if (check === undefined) return undefined;
    // As ajv's allSchemaProperties: a property named __proto__ is not checked, nor "named".
    if (name !== "__proto__") props.push([name, check]);
  }
  let additional: Check | false | undefined;
  if (additionalProperties === false) additional = false;
  else if (additionalProperties !== undefined) {
    additional = compileShape(additionalProperties);
    if (additional === undefined) return undefined;
  }
  const requiredNames = (required ?? []) as readonly string[];
  const named = new Set(props.map(([name]) => name));
  return (value, path, errors, all) => {
    if (!isObject(value)) {
      errors.push({ instancePath: path, keyword: "type", params: {}, message: "must be object" });
      return false;
    }
    let valid = true;
    for (const name of requiredNames) {
      if (value[name] !== undefined) continue;
      errors.push({
        instancePath: path,
        keyword: "required",
        params: { missingProperty: name },
        message: `must have required property '${name}'`,
      });
      if (!all) return false;
      valid = false;
    }
    if (additional !== undefined) {
      for (const key in value) {
        if (named.has(key)) continue;
        if (additional === false) {
          errors.push({ instancePath: path, keyword: "additionalProperties", params: {}, message: "must NOT have additional properties" });
          if (!all) return false;
          valid = false;
        } else if (!additional(value[key], path + segment(key), errors, all)) {
          if (!all) return false;
          valid = false;
        }
      }
    }
    for (const [name, check] of props) {
      if (value[name] === undefined) continue;
      if (!check(value[name], path + segment(name), errors, all)) {
        if (!all) return false;
        valid = false;
      }
    }
    return valid;
  };
}

/**
 * The errors ajv (2020-12, `strict: false`) would give for a value against `schema`, when the
 * schema is plain (see above): every error with `allErrors`, else the first. Undefined when it is not.
 */
export function plainShape(schema: JsonObject, allErrors: boolean): ((value: unknown) => ShapeError[]) | undefined {
  const check = compileShape(schema);
  if (check === undefined) return undefined;
  return (value) => {
    const errors: ShapeError[] = [];
    check(value, "", errors, allErrors);
    return errors;
  };
}
