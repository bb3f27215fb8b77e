import { COMPONENTS_KEY, PARAMS_KEY } from "./metadata-keys";
import type { ElicitOptions } from "./elicit";
import type { PromptOptions } from "./prompt";
import type { ResourceOptions } from "./resource";
import type { ToolOptions } from "./tool";

/** What @Tool, @Resource and @Prompt recorded on a class, one entry per decorated method. */
export type ComponentDeclaration =
  | { kind: "tool"; methodName: string; options: ToolOptions }
  | { kind: "resource"; methodName: string; options: ResourceOptions }
  | { kind: "prompt"; methodName: string; options: PromptOptions };

/** What @Arg, @Ctx, @Elicit and @OperationId recorded on a method, one entry per decorated parameter. */
export type ParamDeclaration =
  | { index: number; kind: "arg"; name?: string }
  | { index: number; kind: "ctx" }
  | { index: number; kind: "operationId" }
  | { index: number; kind: "elicit"; key: string; schema: unknown; options: ElicitOptions };

export function componentDeclarations(ctor: Function): ComponentDeclaration[] {
  return (Reflect.getOwnMetadata(COMPONENTS_KEY, ctor) as ComponentDeclaration[] | undefined) ?? [];
}

export function paramDeclarations(ctor: Function, method: string): ParamDeclaration[] {
  const own: ParamDeclaration[] = Reflect.getOwnMetadata(PARAMS_KEY, ctor, method) ?? [];
  return [...own].sort((a, b) => a.index - b.index);
}
