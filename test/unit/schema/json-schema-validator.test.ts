// Pins JsonSchemaValidator's bootstrap check of raw JSON Schemas:
// - a schema the meta-schema refuses is refused at compile time, naming where and what, also the
//   invalid schemas ajv's compile alone would accept (a non-schema property, a negative
//   minLength, an empty anyOf);
// - every validator of the process checks against one compiled meta-schema (not one per
//   validator: compiling the meta-schema is most of a first compile's cost, paid at startup);
// - a valid schema validates values, reporting a missing property at its own path;
// - a deferred compile (the framework's own shapes) compiles nothing until the first value or a
//   warm-up step (warmDeferredSchema, one schema per step, saying whether any remains), and
//   checks values as an eager one does.
import Ajv2020 from "ajv/dist/2020";
import { JsonSchemaValidator, warmDeferredSchema } from "../../../src/schema/json-schema-validator";

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

  describe("deferred", () => {
    const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    let compiles: jest.SpyInstance;
    beforeEach(() => {
      while (warmDeferredSchema());
      compiles = jest.spyOn(Ajv2020.prototype, "compile");
    });
    afterEach(() => compiles.mockRestore());

    it("compiles at the first value, once, and checks it as an eager compile does", () => {
      const check = new JsonSchemaValidator().compile(schema, "d", { deferred: true });
      expect(compiles).not.toHaveBeenCalled();
      expect(check({})).toEqual(new JsonSchemaValidator().compile(schema, "e")({}));
      expect(check({ n: 1 })).toEqual([]);
      expect(compiles).toHaveBeenCalledTimes(2);
    });

    it("is compiled by warm-up steps, one schema per step, until none remains", () => {
      const first = new JsonSchemaValidator().compile(schema, "f", { deferred: true });
      const second = new JsonSchemaValidator().compile({ type: "string", minLength: 1 }, "g", { deferred: true });
      expect(warmDeferredSchema()).toBe(true);
      expect(compiles).toHaveBeenCalledTimes(1);
      expect(warmDeferredSchema()).toBe(false);
      expect(compiles).toHaveBeenCalledTimes(2);
      expect(first({ n: "x" })).toEqual([{ field: "n", constraint: "type", message: "/n must be number" }]);
      expect(second("s")).toEqual([]);
      expect(compiles).toHaveBeenCalledTimes(2);
    });

    it("checks a deferred plain shape (plain-shape.ts) without ajv, and leaves nothing to warm up", () => {
      const check = new JsonSchemaValidator({ firstOnly: true }).compile(
        { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        "p",
        { deferred: true },
      );
      expect(warmDeferredSchema()).toBe(false);
      expect(check({ name: 1 })).toEqual([{ field: "name", constraint: "type", message: "/name must be string" }]);
      expect(check({ name: "n" })).toEqual([]);
      expect(compiles).not.toHaveBeenCalled();
    });

    it("reports an invalid deferred schema at its first value, naming where", () => {
      const check = new JsonSchemaValidator().compile({ minLength: -1 }, "Feature params", { deferred: true });
      expect(() => check("x")).toThrow("Feature params: invalid JSON Schema: schema is invalid: data/minLength must be >= 0");
    });
  });
});
