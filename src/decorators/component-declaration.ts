import { COMPONENTS_KEY, PARAMS_KEY } from "./metadata-keys";
import type { ElicitOptions } from "./elicit";
import type { PromptOptions } from "./prompt";
import type { ResourceOptions } from "./resource";
import type { ToolOptions } from "./tool";
import type { ViewOptions } from "./view";

/** What @Tool, @Resource, @Prompt and @View recorded on a class, one entry per decorated method. */
export type ComponentDeclaration =
  | { kind: "tool"; methodName: string; options: ToolOptions }
  | { kind: "resource"; methodName: string; options: ResourceOptions }
  | { kind: "prompt"; methodName: string; options: PromptOptions }
  | { kind: "view"; methodName: string; options: ViewOptions };

/** A feature an app must list to serve a kind of declaration: its name, and the fix when it is missing. */
export interface DeclarationFeature {
  /** The feature's `FeatureModule.name`. */
  readonly name: string;
  /** Ends the registration error when no such feature is listed: what the app must add. */
  readonly fix: string;
}

/** The declarations no built-in feature serves, and the feature that does (plain data: decorators import no feature). */
export const DECLARATION_FEATURES: Readonly<Partial<Record<ComponentDeclaration["kind"], DeclarationFeature>>> = {
  view: {
    name: "io.modelcontextprotocol/ui",
    fix: 'list the apps feature in McpApp.create: features: [apps()] (import { apps } from "roundtrip-mcp")',
  },
};

/** False for a declaration that names its content itself (a class-level `@View` with `html`): no method runs. */
export function declarationRunsMethod(declaration: ComponentDeclaration): boolean {
  return declaration.kind !== "view" || declaration.options.html === undefined;
}

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
