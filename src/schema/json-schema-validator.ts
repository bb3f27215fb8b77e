import Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv";
import type { FieldViolation } from "./dto-validator";
import type { JsonObject } from "../protocol/wire-types";

/**
 * Compiles raw JSON Schemas (2020-12 by default) once at bootstrap and validates values against them.
 * Network `$ref`s are never fetched (ajv resolves only what it is given).
 */
export class JsonSchemaValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

  compile(schema: JsonObject, where: string): (value: unknown) => FieldViolation[] {
    let fn: ValidateFunction;
    try {
      fn = this.ajv.compile(schema);
    } catch (error) {
      throw new Error(`${where}: invalid JSON Schema: ${(error as Error).message}`);
    }
    return (value) => {
      if (fn(value)) return [];
      return (fn.errors ?? []).map((e) => ({
        field: e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "(root)",
        constraint: e.keyword,
        message: `${e.instancePath || "value"} ${e.message ?? "is invalid"}`,
      }));
    };
  }
}
