import type { FeatureTable } from "../../features/feature-table";
import { clip } from "../../protocol/clip";
import type { FieldViolation } from "../../schema/dto-validator";
import { JsonSchemaValidator } from "../../schema/json-schema-validator";

/** Longest problem text a params refusal carries. */
const MAX_PROBLEM_CHARS = 160;

/**
 * The wire shape of each method's params (`paramsShape`, else `paramsSchema`, from the feature
 * table), each compiled on first use or by the warm-up after a stdio server's first answer (the
 * shapes are the features' own, vouched valid: startup need not load ajv for them). A check stops at the first violation, so its work is
 * bounded by where the params first fail, and it reports that one violation as one short line
 * ("uri must be string", "name is required"): never a validator dump, never a copy of the input.
 */
export class ParamsCheck {
  private readonly checks = new Map<string, (value: unknown) => FieldViolation[]>();

  constructor(features: FeatureTable) {
    const validator = new JsonSchemaValidator({ firstOnly: true });
    for (const method of features.methods) {
      const shape = method.paramsShape ?? method.paramsSchema;
      if (shape) this.checks.set(method.method, validator.compile(shape, `${method.method} params`, { deferred: true }));
    }
  }

  /** The first problem of these params, as one short line, or undefined when they have the method's shape. */
  problem(method: string, params: unknown): string | undefined {
    const check = this.checks.get(method);
    const first = check?.(params)[0];
    if (first === undefined) return undefined;
    const text = first.message.replace(/^\//, "").replace(/\//g, ".");
    return clip(text.startsWith("value ") ? `params ${text.slice(6)}` : text, MAX_PROBLEM_CHARS);
  }
}
