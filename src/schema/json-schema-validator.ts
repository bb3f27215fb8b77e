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
 * The one meta-schema check of the process, made on first use. Compiling the 2020-12 meta-schema
 * is most of what compiling a first schema costs (about 120 ms of a loaded 2-core machine, against
 * 2 ms for the schema itself), and ajv does it once per instance: every validator of every app
 * would pay it again. So the validators compile with `validateSchema: false` and check each
 * schema here, against one compiled meta-schema shared by all of them.
 */
let metaCheck: Ajv2020 | undefined;

function checkAgainstMetaSchema(schema: JsonObject): void {
  metaCheck ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  // ajv's validateSchema throws on an unknown $schema; it returns false for an invalid schema.
  if (metaCheck.validateSchema(schema) === false) throw new Error(`schema is invalid: ${metaCheck.errorsText(metaCheck.errors)}`);
}

/**
 * Compiles raw JSON Schemas (2020-12 by default) once at bootstrap and validates values against them.
 * Network `$ref`s are never fetched (ajv resolves only what it is given).
 */
export class JsonSchemaValidator {
  private readonly ajv: Ajv2020;

  constructor(options: JsonSchemaValidatorOptions = {}) {
    this.ajv = new Ajv2020({ allErrors: options.firstOnly !== true, strict: false, validateFormats: false, validateSchema: false });
  }

  compile(schema: JsonObject, where: string): (value: unknown) => FieldViolation[] {
    let fn: ValidateFunction;
    try {
      checkAgainstMetaSchema(schema);
      fn = this.ajv.compile(schema);
    } catch (error) {
      throw new Error(`${where}: invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
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
