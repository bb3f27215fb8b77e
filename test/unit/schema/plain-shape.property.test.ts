/*
 * Pins plainShape (src/schema/plain-shape.ts), the check of the framework's own plain shapes
 * without ajv, equal to ajv itself (2020-12, the options json-schema-validator.ts gives it), with
 * fast-check (seeded, bounded): for generated schemas of the plain subset (type object or string,
 * required, properties, additionalProperties false or a schema, nested) and generated values near
 * them (their property names, keys that JSON Pointer escapes, __proto__, integer-like keys that
 * for…in visits first), the same errors in the same order, first only and all; the built-in
 * shapes on values near them; what is outside the subset is left to ajv (undefined).
 */
import fc from "fast-check";
import Ajv2020 from "ajv/dist/2020";
import type { JsonObject } from "../../../src/protocol/wire-types";
import { plainShape } from "../../../src/schema/plain-shape";
import { PAGINATED_PARAMS } from "../../../src/features/list-result";
import { TOOLS_CALL } from "../../../src/features/tools/tools-feature";
import { PROMPTS_GET } from "../../../src/features/prompts/prompts-feature";
import { RESOURCES_READ } from "../../../src/features/resources/resources-feature";
import { JsonSchemaValidator } from "../../../src/schema/json-schema-validator";

const RUNS = { seed: 20260728, numRuns: 1500 };
const KEYS = ["name", "arguments", "cursor", "uri", "a", "b", "~", "a/b", "~1", "__proto__", "0", "10", "constructor"];
const key = fc.constantFrom(...KEYS);

const ajvOf = (allErrors: boolean) => new Ajv2020({ allErrors, strict: false, validateFormats: false, validateSchema: false });
const AJV = { first: ajvOf(false), all: ajvOf(true) };

/** What json-schema-validator.ts reads of an error. */
function essentials(errors: readonly { instancePath: string; keyword: string; params?: object; message?: string }[]) {
  return errors.map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    missingProperty: e.keyword === "required" ? (e.params as { missingProperty?: string }).missingProperty : undefined,
    message: e.message,
  }));
}

function ajvErrors(schema: JsonObject, value: unknown, all: boolean) {
  const fn = (all ? AJV.all : AJV.first).compile(schema);
  return fn(value) ? [] : essentials(fn.errors ?? []);
}

const objectWithKeys = <T>(value: fc.Arbitrary<T>) =>
  fc.uniqueArray(fc.tuple(key, value), { maxLength: 5, selector: ([k]) => k }).map((entries) => Object.fromEntries(entries));

const { schema } = fc.letrec<{ schema: JsonObject; objectSchema: JsonObject }>((tie) => ({
  schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.constant({ type: "string" }), tie("objectSchema")),
  objectSchema: fc
    .record(
      {
        required: fc.uniqueArray(key, { maxLength: 3 }),
        properties: objectWithKeys(tie("schema")),
        additionalProperties: fc.oneof(fc.constant(false as const), tie("schema")),
      },
      { requiredKeys: [] },
    )
    .map((parts) => ({ type: "object", ...parts }) as JsonObject),
}));

const primitive = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    fc.array(tie("value"), { maxLength: 2 }),
    objectWithKeys(tie("value")),
  ),
}));

describe("plainShape", () => {
  it("gives ajv's first error on generated plain schemas and values", () => {
    fc.assert(
      fc.property(schema, value, (s, v) => {
        expect(essentials(plainShape(s, false)!(v))).toEqual(ajvErrors(s, v, false));
      }),
      RUNS,
    );
  });

  it("gives all of ajv's errors, in ajv's order, with allErrors", () => {
    fc.assert(
      fc.property(schema, value, (s, v) => {
        expect(essentials(plainShape(s, true)!(v))).toEqual(ajvErrors(s, v, true));
      }),
      RUNS,
    );
  });

  it("is ajv on the built-in shapes and an argument-less tool's input", () => {
    const shapes = [
      PAGINATED_PARAMS,
      TOOLS_CALL.paramsShape!,
      PROMPTS_GET.paramsShape!,
      RESOURCES_READ.paramsShape!,
      { type: "object", additionalProperties: false },
    ] as JsonObject[];
    for (const s of shapes) expect(plainShape(s, false)).toBeDefined();
    fc.assert(
      fc.property(fc.constantFrom(...shapes), value, fc.boolean(), (s, v, all) => {
        expect(essentials(plainShape(s, all)!(v))).toEqual(ajvErrors(s, v, all));
      }),
      RUNS,
    );
    // Values that reach every keyword of prompts/get.
    const promptsGet = PROMPTS_GET.paramsShape as JsonObject;
    for (const v of [
      {},
      { name: 1 },
      { name: "p", arguments: [] },
      { name: "p", arguments: { a: "x", b: 2, "a/b": 3 } },
      { arguments: { a: 1 } },
    ])
      for (const all of [false, true]) expect(essentials(plainShape(promptsGet, all)!(v))).toEqual(ajvErrors(promptsGet, v, all));
  });

  it("leaves any other schema to ajv", () => {
    for (const s of [
      { type: "object", properties: { a: { enum: ["x"] } } },
      { type: "object", allOf: [] },
      { type: "number" },
      { type: ["object", "null"] },
      { type: "string", minLength: 1 },
      { properties: {} },
      { type: "object", required: [1] },
      { type: "object", additionalProperties: true },
    ] as JsonObject[])
      expect(plainShape(s, false)).toBeUndefined();
  });

  it("is what JsonSchemaValidator answers for a deferred plain shape", () => {
    const v = new JsonSchemaValidator({ firstOnly: true });
    const check = v.compile(PROMPTS_GET.paramsShape as JsonObject, "prompts/get params", { deferred: true });
    expect(check({ name: "p", arguments: { "a/b": 1 } })).toEqual([
      { field: "arguments.a~1b", constraint: "type", message: "/arguments/a~1b must be string" },
    ]);
    expect(check({})).toEqual([{ field: "name", constraint: "required", message: "/name is required" }]);
  });
});
