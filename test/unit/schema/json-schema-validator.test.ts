// Pins JsonSchemaValidator's bootstrap check of raw JSON Schemas:
// - a schema the meta-schema refuses is refused at compile time, naming where and what, also the
//   invalid schemas ajv's compile alone would accept (a non-schema property, a negative
//   minLength, an empty anyOf);
// - every validator of the process checks against one compiled meta-schema (not one per
//   validator: compiling the meta-schema is most of a first compile's cost, paid at startup);
// - a valid schema validates values, reporting a missing property at its own path.
import Ajv2020 from "ajv/dist/2020";
import { JsonSchemaValidator } from "../../../src/schema/json-schema-validator";

describe("JsonSchemaValidator", () => {
  it.each([
    [{ properties: { a: 5 } }, "data/properties/a must be object,boolean"],
    [{ minLength: -1 }, "data/minLength must be >= 0"],
    [{ anyOf: [] }, "data/anyOf must NOT have fewer than 1 items"],
    [{ type: "strnig" }, "data/type must be equal to one of the allowed values"],
  ])("refuses %j at compile time, naming where and why", (schema, why) => {
    expect(() => new JsonSchemaValidator().compile(schema, "Tool.method: inputSchema")).toThrow(
      `Tool.method: inputSchema: invalid JSON Schema: schema is invalid: ${why}`,
    );
  });

  it("checks every validator's schemas against one meta-schema instance", () => {
    const original = Ajv2020.prototype.validateSchema;
    const seen = new Set<unknown>();
    Ajv2020.prototype.validateSchema = function (this: Ajv2020, ...args: Parameters<typeof original>) {
      seen.add(this);
      return original.apply(this, args);
    } as typeof original;
    try {
      new JsonSchemaValidator().compile({ type: "string" }, "a");
      new JsonSchemaValidator({ firstOnly: true }).compile({ type: "number" }, "b");
      new JsonSchemaValidator().compile({ type: "object" }, "c");
    } finally {
      Ajv2020.prototype.validateSchema = original;
    }
    expect(seen.size).toBe(1);
  });

  it("validates values against a valid schema", () => {
    const check = new JsonSchemaValidator().compile({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }, "x");
    expect(check({ name: "a" })).toEqual([]);
    expect(check({})).toEqual([{ field: "name", constraint: "required", message: "/name is required" }]);
  });
});
