import { declareComponent } from "./record-metadata";
import type { CommonComponentOptions } from "./component-options";
import type { DtoClass } from "../protocol/dto-class";

export interface PromptOptions extends CommonComponentOptions {
  /** The arguments DTO (string fields only) when not given as an `@Arg()` parameter. */
  arguments?: DtoClass;
}

/**
 * Declares a prompt.
 *
 * @example @Prompt({ description: "Review code" })
 */
export function Prompt(options: PromptOptions = {}): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    declareComponent(target, propertyKey, (methodName) => ({ kind: "prompt", methodName, options }));
  };
}
