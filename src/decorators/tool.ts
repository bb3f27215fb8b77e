import { declareComponent } from "./record-metadata";
import type { CommonComponentOptions, ToolAnnotations } from "./component-options";
import type { DtoClass } from "../protocol/dto-class";
import type { JsonObject } from "../protocol/wire-types";

export interface ToolOptions extends CommonComponentOptions {
  annotations?: ToolAnnotations;
  /**
   * The arguments: a class-validator DTO (instead of an `@Arg()` parameter) or a raw JSON Schema
   * object (published as `inputSchema` unchanged, arguments validated against it and handed over
   * as a plain object).
   */
  arguments?: DtoClass | JsonObject;
  /** Structured output: a DTO or a raw JSON Schema object. Final structured results are validated against it. */
  output?: DtoClass | JsonObject;
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
