import { COMPONENTS_KEY, PARAMS_KEY } from "./metadata-keys";
import type { ToolOptions } from "./tool";
import type { ResourceOptions } from "./resource";
import type { PromptOptions } from "./prompt";

export type ComponentDeclaration =
  | { kind: "tool"; methodName: string; options: ToolOptions }
  | { kind: "resource"; methodName: string; options: ResourceOptions }
  | { kind: "prompt"; methodName: string; options: PromptOptions };

/** One entry per decorated parameter, keyed by its position (NestJS style). */
export type ParamDeclaration =
  | { index: number; kind: "arg"; name?: string }
  | { index: number; kind: "ctx" }
  | { index: number; kind: "elicit"; key: string; schema: unknown; options: import("./elicit").ElicitOptions };

type Ctor = abstract new (...args: never[]) => unknown;

/** Adds a component declaration to a class; used by @Tool, @Resource and @Prompt. */
export function declareComponent(
  target: object,
  propertyKey: string | symbol | undefined,
  make: (methodName: string) => ComponentDeclaration,
): void {
  const ctor = (propertyKey === undefined ? target : (target as { constructor: Ctor }).constructor) as Ctor;
  if (typeof propertyKey === "symbol") {
    throw new TypeError(`${ctor.name}: a component method must have a string name`);
  }
  const methodName = propertyKey ?? "handle";
  const own: ComponentDeclaration[] = Reflect.hasOwnMetadata(COMPONENTS_KEY, ctor)
    ? Reflect.getOwnMetadata(COMPONENTS_KEY, ctor)
    : [];
  Reflect.defineMetadata(COMPONENTS_KEY, [...own, make(methodName)], ctor);
}

export function componentDeclarations(ctor: Function): ComponentDeclaration[] {
  return (Reflect.getOwnMetadata(COMPONENTS_KEY, ctor) as ComponentDeclaration[] | undefined) ?? [];
}

/** Adds a parameter declaration for method `propertyKey` of the class that owns `target`. */
export function declareParam(target: object, propertyKey: string | symbol | undefined, entry: ParamDeclaration): void {
  const ctor = (typeof target === "function" ? target : (target as { constructor: Function }).constructor) as Function;
  const method = propertyKey === undefined ? "constructor" : String(propertyKey);
  if (method === "constructor") {
    throw new TypeError(`${ctor.name}: parameter decorators of roundtrip-mcp go on handler methods, not constructors`);
  }
  const own: ParamDeclaration[] = Reflect.getOwnMetadata(PARAMS_KEY, ctor, method) ?? [];
  if (own.some((p) => p.index === entry.index)) {
    throw new TypeError(`${ctor.name}.${method}: parameter ${entry.index} has more than one roundtrip-mcp decorator`);
  }
  Reflect.defineMetadata(PARAMS_KEY, [...own, entry], ctor, method);
}

export function paramDeclarations(ctor: Function, method: string): ParamDeclaration[] {
  const own: ParamDeclaration[] = Reflect.getOwnMetadata(PARAMS_KEY, ctor, method) ?? [];
  return [...own].sort((a, b) => a.index - b.index);
}
