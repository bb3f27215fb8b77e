import { declareParam } from "./record-metadata";

/**
 * Binds a handler parameter to the request's arguments.
 * - `@Arg()` on a DTO-typed parameter: the whole `arguments` object, transformed and validated.
 * - `@Arg("id")`: one resource-template variable (or one prompt argument) by name.
 *
 * @example handle(@Arg() args: AddArgs) { ... }
 */
export function Arg(name?: string): ParameterDecorator {
  return (target, propertyKey, index) => declareParam(target, propertyKey, { index, kind: "arg", name });
}
