/*
 * Pins the restricted flat form-schema subset (validateFormSchema):
 * - every allowed shape passes: string (lengths, four formats), number/integer (bounds), boolean,
 *   single-select enum / oneOf, multi-select items.enum / items.anyOf (item counts), annotations,
 *   $schema and required at top level, an empty form;
 * - every rejection is separate and the ElicitationSchemaError names the property and keyword:
 *   unknown top-level keywords, wrong top-level type, missing properties, bad required lists,
 *   pattern, nested objects, $ref, unions (type arrays, anyOf), unsupported formats, exclusive
 *   bounds, legacy enumNames, empty / duplicate / non-string enums, malformed oneOf / anyOf
 *   options, bad items, negative / fractional / inverted lengths, counts and bounds, minItems
 *   beyond the options, a default that breaks its own property, non-string title/description,
 *   keywords that do not belong to the property's shape;
 * - property (fast-check): any generated valid flat schema passes.
 */
import fc from "fast-check";
import { validateFormSchema } from "../../../src/schema/form-schema-subset";
import { ElicitationSchemaError } from "../../../src/schema/elicitation-schema-error";
import type { FormPropertySchema, FormSchema } from "../../../src/protocol/form-schema";

const form = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

function rejection(schema: unknown): ElicitationSchemaError {
  try {
    validateFormSchema(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(ElicitationSchemaError);
    return error as ElicitationSchemaError;
  }
  throw new Error("expected the schema to be rejected");
}

function expectRejected(schema: unknown, property: string | undefined, keyword: string | undefined): void {
  const error = rejection(schema);
  expect(error.details.property).toBe(property);
  expect(error.details.keyword).toBe(keyword);
  if (property !== undefined) expect(error.message).toContain(`property "${property}"`);
  if (keyword !== undefined) expect(error.message).toContain(keyword);
}

describe("validateFormSchema: accepted shapes", () => {
  it.each<[string, FormPropertySchema]>([
    ["plain string", { type: "string" }],
    ["string with everything", { type: "string", title: "T", description: "D", minLength: 0, maxLength: 3, default: "ab" }],
    ["email", { type: "string", format: "email" }],
    ["uri", { type: "string", format: "uri" }],
    ["date", { type: "string", format: "date", default: "2024-02-29" }],
    ["date-time", { type: "string", format: "date-time" }],
    ["equal length bounds", { type: "string", minLength: 2, maxLength: 2 }],
    ["number", { type: "number", minimum: -1.5, maximum: 2.5, default: 0.5 }],
    ["integer", { type: "integer", minimum: 0, maximum: 10, default: 3 }],
    ["boolean", { type: "boolean", title: "OK?", default: false }],
    ["single enum", { type: "string", enum: ["a", "b"], default: "b" }],
    [
      "single oneOf",
      {
        type: "string",
        oneOf: [
          { const: "a", title: "A" },
          { const: "b", title: "B" },
        ],
        default: "a",
      },
    ],
    ["multi enum", { type: "array", items: { type: "string", enum: ["x", "y"] }, minItems: 1, maxItems: 2, default: ["x"] }],
    ["multi anyOf", { type: "array", items: { anyOf: [{ const: "x", title: "X" }] }, default: [] }],
  ])("accepts %s", (_name, property) => {
    expect(() => validateFormSchema(form({ p: property }, { required: ["p"] }))).not.toThrow();
  });

  it("accepts $schema, an empty form and no required list", () => {
    expect(() =>
      validateFormSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: {} }),
    ).not.toThrow();
  });
});

describe("validateFormSchema: top-level rejections", () => {
  it.each<[string, unknown, string | undefined]>([
    ["not an object", "schema", undefined],
    ["an array", [], undefined],
    ["additionalProperties", form({}, { additionalProperties: false }), "additionalProperties"],
    ["$ref at top level", form({}, { $ref: "#/x" }), "$ref"],
    ["$defs at top level", form({}, { $defs: {} }), "$defs"],
    ["type string", { type: "string", properties: {} }, "type"],
    ["missing type", { properties: {} }, "type"],
    ["missing properties", { type: "object" }, "properties"],
    ["properties an array", { type: "object", properties: [] }, "properties"],
    ["$schema not a string", { type: "object", properties: {}, $schema: 1 }, "$schema"],
    ["required not an array", form({ a: { type: "string" } }, { required: "a" }), "required"],
    ["required with a number", form({ a: { type: "string" } }, { required: [1] }), "required"],
    ["empty property name", form({ "": { type: "string" } }), "properties"],
  ])("rejects %s", (_name, schema, keyword) => {
    expectRejected(schema, undefined, keyword);
  });

  it("rejects required naming an undeclared property, naming it", () => {
    expectRejected(form({ a: { type: "string" } }, { required: ["b"] }), "b", "required");
  });

  it("rejects a property listed twice in required", () => {
    expectRejected(form({ a: { type: "string" } }, { required: ["a", "a"] }), "a", "required");
  });
});

describe("validateFormSchema: property rejections name property and keyword", () => {
  it.each<[string, unknown, string | undefined]>([
    ["not an object", "string", undefined],
    ["missing type", { title: "x" }, "type"],
    ["pattern", { type: "string", pattern: "^a$" }, "pattern"],
    ["nested object", { type: "object", properties: { x: { type: "string" } } }, "type"],
    ["nested properties on a string", { type: "string", properties: {} }, "properties"],
    ["$ref", { type: "string", $ref: "#/$defs/x" }, "$ref"],
    ["type union", { type: ["string", "null"] }, "type"],
    ["anyOf union", { type: "string", anyOf: [{ type: "string" }] }, "anyOf"],
    ["allOf", { type: "string", allOf: [] }, "allOf"],
    ["not", { type: "string", not: {} }, "not"],
    ["null type", { type: "null" }, "type"],
    ["uuid format", { type: "string", format: "uuid" }, "format"],
    ["hostname format", { type: "string", format: "hostname" }, "format"],
    ["exclusiveMinimum", { type: "number", exclusiveMinimum: 0 }, "exclusiveMinimum"],
    ["exclusiveMaximum", { type: "integer", exclusiveMaximum: 9 }, "exclusiveMaximum"],
    ["multipleOf", { type: "number", multipleOf: 2 }, "multipleOf"],
    ["const at property level", { type: "string", const: "a" }, "const"],
    ["legacy enumNames", { type: "string", enum: ["a"], enumNames: ["A"] }, "enumNames"],
    ["empty enum", { type: "string", enum: [] }, "enum"],
    ["duplicate enum", { type: "string", enum: ["a", "a"] }, "enum"],
    ["non-string enum", { type: "string", enum: ["a", 1] }, "enum"],
    ["enum not an array", { type: "string", enum: "a" }, "enum"],
    ["enum on a number", { type: "number", enum: [1, 2] }, "enum"],
    ["enum with oneOf", { type: "string", enum: ["a"], oneOf: [{ const: "a", title: "A" }] }, "oneOf"],
    ["empty oneOf", { type: "string", oneOf: [] }, "oneOf"],
    ["oneOf option without title", { type: "string", oneOf: [{ const: "a" }] }, "oneOf"],
    ["oneOf option with extra key", { type: "string", oneOf: [{ const: "a", title: "A", description: "d" }] }, "oneOf"],
    ["oneOf option with number const", { type: "string", oneOf: [{ const: 1, title: "A" }] }, "oneOf"],
    [
      "duplicate oneOf const",
      {
        type: "string",
        oneOf: [
          { const: "a", title: "A" },
          { const: "a", title: "B" },
        ],
      },
      "oneOf",
    ],
    ["minLength on an enum", { type: "string", enum: ["a"], minLength: 1 }, "minLength"],
    ["format on a oneOf", { type: "string", oneOf: [{ const: "a", title: "A" }], format: "email" }, "format"],
    ["minLength on a number", { type: "number", minLength: 1 }, "minLength"],
    ["minimum on a string", { type: "string", minimum: 1 }, "minimum"],
    ["maxItems on a boolean", { type: "boolean", maxItems: 1 }, "maxItems"],
    ["negative minLength", { type: "string", minLength: -1 }, "minLength"],
    ["negative maxLength", { type: "string", maxLength: -2 }, "maxLength"],
    ["fractional minLength", { type: "string", minLength: 1.5 }, "minLength"],
    ["string maxLength", { type: "string", maxLength: "3" }, "maxLength"],
    ["inverted lengths", { type: "string", minLength: 5, maxLength: 2 }, "minLength"],
    ["non-number minimum", { type: "number", minimum: "0" }, "minimum"],
    ["infinite maximum", { type: "number", maximum: Infinity }, "maximum"],
    ["inverted bounds", { type: "integer", minimum: 10, maximum: 1 }, "minimum"],
    ["array without items", { type: "array" }, "items"],
    ["array of strings without enum", { type: "array", items: { type: "string" } }, "items"],
    ["array of objects", { type: "array", items: { type: "object", enum: ["a"] } }, "items.type"],
    ["items with an extra key", { type: "array", items: { type: "string", enum: ["a"], pattern: "x" } }, "items.pattern"],
    ["items mixing enum and anyOf", { type: "array", items: { enum: ["a"], anyOf: [{ const: "a", title: "A" }] } }, "items"],
    ["empty items.enum", { type: "array", items: { type: "string", enum: [] } }, "items.enum"],
    ["duplicate items.enum", { type: "array", items: { type: "string", enum: ["a", "a"] } }, "items.enum"],
    ["bad items.anyOf option", { type: "array", items: { anyOf: [{ const: "a" }] } }, "items.anyOf"],
    [
      "duplicate items.anyOf const",
      {
        type: "array",
        items: {
          anyOf: [
            { const: "a", title: "A" },
            { const: "a", title: "B" },
          ],
        },
      },
      "items.anyOf",
    ],
    ["uniqueItems", { type: "array", items: { type: "string", enum: ["a"] }, uniqueItems: true }, "uniqueItems"],
    ["negative minItems", { type: "array", items: { type: "string", enum: ["a"] }, minItems: -1 }, "minItems"],
    ["fractional maxItems", { type: "array", items: { type: "string", enum: ["a"] }, maxItems: 0.5 }, "maxItems"],
    ["inverted item counts", { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 2, maxItems: 1 }, "minItems"],
    ["minItems beyond the options", { type: "array", items: { type: "string", enum: ["a"] }, minItems: 2 }, "minItems"],
    ["title not a string", { type: "string", title: 1 }, "title"],
    ["description not a string", { type: "boolean", description: false }, "description"],
    ["string default on a number", { type: "number", default: "1" }, "default"],
    ["fractional default on an integer", { type: "integer", default: 1.5 }, "default"],
    ["default below minimum", { type: "number", minimum: 0, default: -1 }, "default"],
    ["default too long", { type: "string", maxLength: 2, default: "abc" }, "default"],
    ["default breaking format", { type: "string", format: "date", default: "2023-02-29" }, "default"],
    ["default outside enum", { type: "string", enum: ["a"], default: "b" }, "default"],
    ["default outside oneOf", { type: "string", oneOf: [{ const: "a", title: "A" }], default: "b" }, "default"],
    ["default not a boolean", { type: "boolean", default: "true" }, "default"],
    ["multi default outside options", { type: "array", items: { type: "string", enum: ["a"] }, default: ["b"] }, "default"],
    [
      "multi default over maxItems",
      { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 1, default: ["a", "b"] },
      "default",
    ],
    ["multi default a string", { type: "array", items: { type: "string", enum: ["a"] }, default: "a" }, "default"],
    ["$schema on a property", { type: "string", $schema: "x" }, "$schema"],
  ])("rejects %s", (_name, property, keyword) => {
    expectRejected(form({ field: property }), "field", keyword);
  });

  it("explains the default failure by the rule it broke", () => {
    expect(rejection(form({ n: { type: "integer", maximum: 3, default: 4 } })).message).toContain('does not satisfy "maximum"');
  });

  it("suggests oneOf instead of enumNames and inline properties instead of $ref", () => {
    expect(rejection(form({ c: { type: "string", enum: ["a"], enumNames: ["A"] } })).message).toContain("oneOf");
    expect(rejection(form({ c: { type: "string", $ref: "#/x" } })).message).toContain("inline");
  });
});

describe("validateFormSchema: generated valid schemas", () => {
  const label = fc.string({ maxLength: 8 });
  const count = fc.nat({ max: 5 });
  const distinctValues = fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 5 });
  const options = distinctValues.chain((values) => fc.tuple(...values.map((value) => label.map((title) => ({ const: value, title })))));
  const annotations = fc.record({ title: label, description: label }, { requiredKeys: [] });

  const stringProperty = fc
    .tuple(
      annotations,
      fc.option(count, { nil: undefined }),
      fc.option(count, { nil: undefined }),
      fc.constantFrom(undefined, "email", "uri", "date", "date-time"),
    )
    .map(([notes, a, b, format]) => {
      const [minLength, maxLength] = a !== undefined && b !== undefined ? [Math.min(a, b), Math.max(a, b)] : [a, b];
      return { type: "string", ...notes, minLength, maxLength, format } as FormPropertySchema;
    });
  const numberProperty = fc
    .tuple(
      annotations,
      fc.constantFrom("number", "integer"),
      fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }),
      fc.nat({ max: 100 }),
    )
    .map(
      ([notes, type, minimum, span]) =>
        ({
          type,
          ...notes,
          minimum,
          maximum: minimum === undefined ? undefined : minimum + span,
          default: minimum,
        }) as FormPropertySchema,
    );
  const booleanProperty = fc
    .tuple(annotations, fc.option(fc.boolean(), { nil: undefined }))
    .map(([notes, fallback]) => ({ type: "boolean", ...notes, default: fallback }) as FormPropertySchema);
  const enumProperty = fc
    .tuple(annotations, distinctValues)
    .map(([notes, values]) => ({ type: "string", ...notes, enum: values, default: values[0] }) as FormPropertySchema);
  const oneOfProperty = fc.tuple(annotations, options).map(([notes, oneOf]) => ({ type: "string", ...notes, oneOf }) as FormPropertySchema);
  const multiProperty = fc
    .tuple(
      annotations,
      fc.oneof(
        distinctValues.map((values) => ({ type: "string" as const, enum: values })),
        options.map((anyOf) => ({ anyOf })),
      ),
      fc.boolean(),
    )
    .map(([notes, items, bounded]) => {
      const optionCount = "enum" in items ? items.enum.length : items.anyOf.length;
      return { type: "array", ...notes, items, ...(bounded ? { minItems: 1, maxItems: optionCount } : {}) } as FormPropertySchema;
    });
  const property = fc.oneof(stringProperty, numberProperty, booleanProperty, enumProperty, oneOfProperty, multiProperty);
  const schema = fc
    .dictionary(fc.string({ minLength: 1, maxLength: 6 }), property, { maxKeys: 6 })
    .chain((properties) => fc.subarray(Object.keys(properties)).map((required): FormSchema => ({ type: "object", properties, required })))
    // JSON round trip drops the undefined members the arbitraries leave behind.
    .map((generated) => JSON.parse(JSON.stringify(generated)) as FormSchema);

  it("accepts every generated flat schema", () => {
    fc.assert(
      fc.property(schema, (generated) => {
        validateFormSchema(generated);
      }),
    );
  });
});
