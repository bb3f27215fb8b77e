import { ElicitationSchemaError } from "./elicitation-schema-error";
import { ELICITATION_FORMATS } from "./formats";
import type { FormPropertySchema, FormSchema } from "../protocol/form-schema";
import { formValueViolation } from "./form-value-check";
import { isPlainObject } from "../protocol/plain-object";

type JsonRecord = Record<string, unknown>;

const TOP_LEVEL_KEYWORDS = ["$schema", "type", "properties", "required"];
const ANNOTATIONS = ["title", "description", "default"];
/** The whole allow-list, per property shape (spec table "PrimitiveSchemaDefinition"). */
const KEYWORDS_BY_SHAPE = {
  string: ["type", ...ANNOTATIONS, "minLength", "maxLength", "format"],
  enum: ["type", ...ANNOTATIONS, "enum"],
  oneOf: ["type", ...ANNOTATIONS, "oneOf"],
  number: ["type", ...ANNOTATIONS, "minimum", "maximum"],
  boolean: ["type", ...ANNOTATIONS],
  array: ["type", ...ANNOTATIONS, "items", "minItems", "maxItems"],
} as const;
type Shape = keyof typeof KEYWORDS_BY_SHAPE;

const SHAPE_LABELS: Record<Shape, string> = {
  string: "string",
  enum: "single-select enum (enum)",
  oneOf: "single-select enum (oneOf)",
  number: "number",
  boolean: "boolean",
  array: "multi-select",
};

// Better hints for keywords people reach for most often.
const KEYWORD_HINTS: Record<string, string> = {
  enumNames: "is legacy and not supported; use oneOf: [{ const, title }]",
  $ref: "is not supported; write the property inline",
  anyOf: "is not supported: no unions, one primitive type per property",
  allOf: "is not supported: no unions, one primitive type per property",
  not: "is not supported",
  properties: "is not supported: no nested objects, the form is one flat level",
};

/**
 * Asserts that `schema` stays inside the restricted flat subset of `elicitation/create` form
 * schemas, and throws an `ElicitationSchemaError` naming the property and keyword otherwise.
 *
 * Allowed: at top level only `$schema`, `type: "object"`, `properties` and `required` (declared,
 * distinct names). Each property is exactly one of: string (`minLength`, `maxLength`, `format`
 * email/uri/date/date-time), number/integer (`minimum`, `maximum`), boolean, single-select
 * (`enum`, or `oneOf` of `{const, title}`), multi-select (`type: "array"` with `items.enum` or
 * `items.anyOf` of `{const, title}`, `minItems`, `maxItems`); `title`, `description` and `default`
 * everywhere, `default` being checked against its own property. Everything else is rejected,
 * including `pattern`, nested objects, `$ref`, unions, other formats, `exclusiveMinimum`, the
 * legacy `enumNames`, empty or duplicate enums, negative or fractional lengths and inverted bounds.
 *
 * @example validateFormSchema({ type: "object", properties: { age: { type: "integer", minimum: 0 } } });
 */
export function validateFormSchema(schema: unknown): asserts schema is FormSchema {
  if (!isPlainObject(schema)) throw new ElicitationSchemaError("the schema must be a plain object");
  for (const keyword of Object.keys(schema)) {
    if (!TOP_LEVEL_KEYWORDS.includes(keyword)) {
      throw new ElicitationSchemaError(`"${keyword}" is not supported at the top level`, { keyword });
    }
  }
  if (schema.type !== "object") {
    throw new ElicitationSchemaError('top-level "type" must be "object"', { keyword: "type" });
  }
  if (schema.$schema !== undefined && typeof schema.$schema !== "string") {
    throw new ElicitationSchemaError('"$schema" must be a string', { keyword: "$schema" });
  }
  const properties = schema.properties;
  if (!isPlainObject(properties)) {
    throw new ElicitationSchemaError('"properties" must be an object of property schemas', { keyword: "properties" });
  }
  for (const [name, property] of Object.entries(properties)) {
    if (name.length === 0) throw new ElicitationSchemaError('"properties" must not contain an empty name', { keyword: "properties" });
    validateProperty(name, property);
  }
  validateRequired(schema.required, properties);
}

function validateRequired(required: unknown, properties: JsonRecord): void {
  if (required === undefined) return;
  const fail = (problem: string, property?: string): never => {
    throw new ElicitationSchemaError(problem, { property, keyword: "required" });
  };
  if (!Array.isArray(required)) fail('"required" must be an array of property names');
  const seen = new Set<string>();
  for (const name of required as unknown[]) {
    if (typeof name !== "string") return fail('"required" must contain only strings');
    if (!Object.prototype.hasOwnProperty.call(properties, name)) fail('"required" names an undeclared property', name);
    if (seen.has(name)) fail('"required" lists the property twice', name);
    seen.add(name);
  }
}

function validateProperty(name: string, property: unknown): void {
  const fail = (keyword: string | undefined, problem: string): never => {
    throw new ElicitationSchemaError(problem, { property: name, keyword });
  };
  if (!isPlainObject(property)) return fail(undefined, "a property schema must be a plain object");
  const shape = shapeOf(property, fail);
  const allowed: readonly string[] = KEYWORDS_BY_SHAPE[shape];
  for (const keyword of Object.keys(property)) {
    if (!allowed.includes(keyword)) {
      fail(keyword, `"${keyword}" ${KEYWORD_HINTS[keyword] ?? `is not allowed on a ${SHAPE_LABELS[shape]} property`}`);
    }
  }
  for (const keyword of ["title", "description"]) {
    if (property[keyword] !== undefined && typeof property[keyword] !== "string") fail(keyword, `"${keyword}" must be a string`);
  }
  switch (shape) {
    case "string":
      checkCount(property, "minLength", fail);
      checkCount(property, "maxLength", fail);
      checkOrder(property, "minLength", "maxLength", fail);
      if (property.format !== undefined && !(ELICITATION_FORMATS as readonly unknown[]).includes(property.format)) {
        fail("format", `"format" must be one of ${ELICITATION_FORMATS.join(", ")}`);
      }
      break;
    case "enum":
      checkEnum(property.enum, "enum", fail);
      break;
    case "oneOf":
      checkOptions(property.oneOf, "oneOf", fail);
      break;
    case "number":
      for (const keyword of ["minimum", "maximum"]) {
        const bound = property[keyword];
        if (bound !== undefined && (typeof bound !== "number" || !Number.isFinite(bound))) {
          fail(keyword, `"${keyword}" must be a finite number`);
        }
      }
      checkOrder(property, "minimum", "maximum", fail);
      break;
    case "boolean":
      break;
    case "array":
      checkMultiSelect(property, fail);
      break;
  }
  if (property.default !== undefined) {
    const violation = formValueViolation(property as FormPropertySchema, property.default);
    if (violation !== undefined) fail("default", `"default" does not satisfy "${violation}"`);
  }
}

type Fail = (keyword: string | undefined, problem: string) => never;

function shapeOf(property: JsonRecord, fail: Fail): Shape {
  const type = property.type;
  if (type === undefined) fail("type", '"type" is required');
  if (Array.isArray(type)) fail("type", "type unions are not supported; use one primitive type");
  switch (type) {
    case "string":
      if ("enum" in property && "oneOf" in property) fail("oneOf", '"oneOf" cannot be combined with "enum"');
      return "enum" in property ? "enum" : "oneOf" in property ? "oneOf" : "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "array":
      return "array";
    case "object":
      return fail("type", '"type": "object" is not supported: no nested objects, the form is one flat level');
    default:
      return fail("type", '"type" must be one of string, number, integer, boolean, array');
  }
}

function checkMultiSelect(property: JsonRecord, fail: Fail): void {
  const items = property.items;
  if (!isPlainObject(items)) return fail("items", '"items" is required: { type: "string", enum } or { anyOf }');
  const keys = Object.keys(items).sort().join(",");
  if (keys === "enum,type") {
    if (items.type !== "string") fail("items.type", '"items.type" must be "string"');
    checkEnum(items.enum, "items.enum", fail);
  } else if (keys === "anyOf") {
    checkOptions(items.anyOf, "items.anyOf", fail);
  } else {
    const extra = Object.keys(items).find((key) => !["type", "enum", "anyOf"].includes(key));
    const keyword = extra === undefined ? "items" : `items.${extra}`;
    fail(keyword, `"${keyword}": items must be exactly { type: "string", enum: [...] } or { anyOf: [{ const, title }] }`);
  }
  checkCount(property, "minItems", fail);
  checkCount(property, "maxItems", fail);
  checkOrder(property, "minItems", "maxItems", fail);
  const optionCount = keys === "anyOf" ? (items.anyOf as unknown[]).length : (items.enum as unknown[]).length;
  if (typeof property.minItems === "number" && property.minItems > optionCount) {
    fail("minItems", '"minItems" is greater than the number of options');
  }
}

function checkEnum(values: unknown, keyword: string, fail: Fail): void {
  if (!Array.isArray(values) || values.length === 0) fail(keyword, `"${keyword}" must be a non-empty array of strings`);
  const list = values as unknown[];
  if (!list.every((value) => typeof value === "string")) fail(keyword, `"${keyword}" must contain only strings`);
  if (new Set(list).size !== list.length) fail(keyword, `"${keyword}" contains a duplicate value`);
}

function checkOptions(options: unknown, keyword: string, fail: Fail): void {
  if (!Array.isArray(options) || options.length === 0) {
    fail(keyword, `"${keyword}" must be a non-empty array of { const, title }`);
  }
  const seen = new Set<string>();
  for (const option of options as unknown[]) {
    const exact =
      isPlainObject(option) &&
      Object.keys(option).sort().join(",") === "const,title" &&
      typeof option.const === "string" &&
      typeof option.title === "string";
    if (!exact) fail(keyword, `every "${keyword}" option must be exactly { const: string, title: string }`);
    const value = (option as { const: string }).const;
    if (seen.has(value)) fail(keyword, `"${keyword}" contains a duplicate const`);
    seen.add(value);
  }
}

function checkCount(property: JsonRecord, keyword: string, fail: Fail): void {
  const count = property[keyword];
  if (count !== undefined && !(typeof count === "number" && Number.isSafeInteger(count) && count >= 0)) {
    fail(keyword, `"${keyword}" must be a non-negative integer`);
  }
}

function checkOrder(property: JsonRecord, low: string, high: string, fail: Fail): void {
  const min = property[low];
  const max = property[high];
  if (typeof min === "number" && typeof max === "number" && min > max) {
    fail(low, `"${low}" is greater than "${high}"`);
  }
}
