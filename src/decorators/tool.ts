import { declareComponent } from "./component-declaration";
import type { CommonComponentOptions, DtoClass, JsonSchema, ToolAnnotations } from "./component-options";

export interface ToolOptions extends CommonComponentOptions {
  annotations?: ToolAnnotations;
  /**
   * The arguments: a class-validator DTO (instead of an `@Arg()` parameter) or a raw JSON Schema
   * (passed through unchanged, arguments validated against it and handed over as a plain object).
   */
  input?: DtoClass | JsonSchema;
  /** Structured output: a DTO or a raw JSON Schema. Final structured results are validated against it. */
  output?: DtoClass | JsonSchema;
}

/**
 * Declares a tool: on a class (its `handle` method runs) or on a method of a service class.
 *
 * @example @Tool({ description: "Add two numbers", annotations: { readOnlyHint: true } })
 */
export function Tool(options: ToolOptions = {}): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    declareComponent(target, propertyKey, (methodName) => ({ kind: "tool", methodName, options }));
  };
}
