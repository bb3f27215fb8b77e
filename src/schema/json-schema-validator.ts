import Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv";
import type { FieldViolation } from "./dto-validator";
import type { JsonObject } from "../protocol/wire-types";

export interface JsonSchemaValidatorOptions {
  /**
   * Stop at the first violation instead of collecting them all: the work on an invalid value is
   * then bounded by where it first fails (used for the wire shapes of params).
   */
  readonly firstOnly?: boolean;
}

/**
 * Compiles raw JSON Schemas (2020-12 by default) once at bootstrap and validates values against them.
 * Network `$ref`s are never fetched (ajv resolves only what it is given).
 */
export class JsonSchemaValidator {
  private readonly ajv: Ajv2020;

  constructor(options: JsonSchemaValidatorOptions = {}) {
    this.ajv = new Ajv2020({ allErrors: options.firstOnly !== true, strict: false, validateFormats: false });
  }

  compile(schema: JsonObject, where: string): (value: unknown) => FieldViolation[] {
    let fn: ValidateFunction;
    try {
      fn = this.ajv.compile(schema);
    } catch (error) {
      throw new Error(`${where}: invalid JSON Schema: ${(error as Error).message}`);
    }
    return (value) => {
      if (fn(value)) return [];
      return (fn.errors ?? []).map((e) => {
        // A missing property is reported at its own path ("/name is required"), not its parent's.
        const missing = e.keyword === "required" ? (e.params as { missingProperty?: unknown }).missingProperty : undefined;
        const pointer = typeof missing === "string" ? `${e.instancePath}/${missing}` : e.instancePath;
        return {
          field: pointer ? pointer.slice(1).replace(/\//g, ".") : "(root)",
          constraint: e.keyword,
          message: typeof missing === "string" ? `${pointer} is required` : `${pointer || "value"} ${e.message ?? "is invalid"}`,
        };
      });
    };
  }
}
