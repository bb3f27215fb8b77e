import { paramDeclarations, type ComponentDeclaration, type ParamDeclaration } from "../decorators/component-declaration";
import { declaredMiddleware } from "../decorators/use-middleware";
import type { ComponentRef, Middleware } from "../protocol/middleware";
import type { JsonObject } from "../protocol/wire-types";
import { dtoToJsonSchema, SchemaGenerationError } from "../schema/dto-json-schema";
import type { FieldViolation } from "../schema/dto-validator";
import { JsonSchemaValidator } from "../schema/json-schema-validator";
import type { ArgumentBinder, ComponentDefinition, ElicitSpec, ParamPlan } from "./component-definition";
import { elicitSpecs } from "./elicit-specs";
import { RegistrationError } from "./registration-error";

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const PLAIN_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt]);

/** One `@Tool`, `@Resource` or `@Prompt` declaration, as the decorators recorded it. */
export interface DeclaredComponent {
  readonly cls: Function;
  readonly declaration: ComponentDeclaration;
  /** "Class.method", for messages. */
  readonly where: string;
}

/** The fields of a `ComponentDefinition` that do not depend on its feature. */
export type CommonFields = Pick<ComponentDefinition, "ref" | "where" | "token" | "methodName" | "params" | "middleware" | "elicits" | "descriptor" | "timeoutMs">;

/** What every kind of component shares, planned from its declaration. */
export interface CommonPlan {
  readonly params: ParamPlan[];
  /** The DTO of an `@Arg()` parameter (or a lone undecorated DTO parameter), if any. */
  readonly inputDto?: Function;
  readonly elicits: ElicitSpec[];
  readonly middleware: Middleware[];
}

/**
 * The compile steps every feature shares: parameter plans, `@Elicit` specs, middleware, names,
 * DTO and raw JSON Schemas. One per app, so raw schemas share one compiler (ajv). Every error is
 * a `RegistrationError` naming the class and method.
 */
export class ComponentCompiler {
  private readonly schemas = new JsonSchemaValidator();

  /** Runs one component's compile step, prefixing any error with "Class.method: ". */
  guard<T>(where: string, compile: () => T): T {
    try {
      return compile();
    } catch (error) {
      if (error instanceof RegistrationError) throw error;
      const message = (error as Error).message;
      throw new RegistrationError(message.startsWith(where) ? message : `${where}: ${message}`);
    }
  }

  /** The wire name: the option, else the method name (the class name for a class component). */
  name(component: DeclaredComponent, given: string | undefined, kind: string): string {
    const name = given ?? (component.declaration.methodName === "handle" ? component.cls.name : component.declaration.methodName);
    if (!NAME.test(name)) throw new RegistrationError(`${component.where}: invalid ${kind} name "${name}" (1 to 128 of A-Za-z0-9_.-)`);
    return name;
  }

  /**
   * Maps every method parameter to a source, reads the `@Elicit` questions and the middleware.
   * An undecorated single DTO parameter is the arguments; `rawInput` lets a tool with a raw
   * input schema take them as a plain object.
   */
  plan(component: DeclaredComponent, kind: "tool" | "resource" | "prompt", own: Middleware[] | undefined, rawInput = false): CommonPlan {
    const { cls, where } = component;
    const methodName = component.declaration.methodName;
    const declared = paramDeclarations(cls, methodName);
    const types: unknown[] = Reflect.getMetadata("design:paramtypes", cls.prototype, methodName) ?? [];
    const arity = Math.max(types.length, (cls.prototype as Record<string, Function>)[methodName].length, ...declared.map((d) => d.index + 1));
    const params: ParamPlan[] = [];
    let inputDto: Function | undefined;
    for (let index = 0; index < arity; index++) {
      const decl = declared.find((d) => d.index === index);
      const type = types[index];
      if (!decl) {
        if (arity === 1 && kind !== "resource" && isDtoClass(type)) {
          inputDto = type as Function;
          params.push({ kind: "arguments" });
          continue;
        }
        throw new RegistrationError(`${where}: parameter ${index} has no @Arg, @Ctx or @Elicit decorator`);
      }
      const planned = planDeclared(decl, type, where, kind, rawInput, inputDto !== undefined);
      if (planned.dto) inputDto = planned.dto;
      params.push(planned.plan);
    }
    return { params, inputDto, elicits: elicitSpecs(declared, where), middleware: this.middleware(cls, methodName, own) };
  }

  /** The fields every definition has, from the declaration, its plan and its descriptor. */
  common(component: DeclaredComponent, plan: CommonPlan, ref: ComponentRef, descriptor: JsonObject): CommonFields {
    const { params, elicits, middleware } = plan;
    const timeoutMs = (component.declaration.options as { timeoutMs?: unknown }).timeoutMs;
    if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || (timeoutMs as number) < 1)) {
      throw new RegistrationError(`${component.where}: timeoutMs must be a positive integer number of milliseconds`);
    }
    return {
      ref,
      where: component.where,
      token: component.cls,
      methodName: component.declaration.methodName,
      params,
      middleware,
      elicits,
      descriptor,
      ...(timeoutMs !== undefined && { timeoutMs: timeoutMs as number }),
    };
  }

  /**
   * Compiles every declaration of one kind keyed by its wire name; a repeated name is a
   * registration error naming both places.
   */
  byName<T extends { readonly name: string; readonly where: string }>(
    declarations: readonly DeclaredComponent[],
    kind: "tool" | "prompt",
    compile: (component: DeclaredComponent) => T,
  ): Map<string, T> {
    const compiled = new Map<string, T>();
    for (const component of declarations) {
      if (component.declaration.kind !== kind) continue;
      const definition = this.guard(component.where, () => compile(component));
      const earlier = compiled.get(definition.name);
      if (earlier) throw new RegistrationError(`${component.where}: duplicate ${kind} name "${definition.name}" (already declared by ${earlier.where})`);
      compiled.set(definition.name, definition);
    }
    return compiled;
  }

  /** A DTO's JSON Schema, with conversion problems as registration errors. */
  dtoSchema(dto: Function, where: string): JsonObject {
    try {
      return dtoToJsonSchema(dto);
    } catch (error) {
      if (error instanceof SchemaGenerationError) throw new RegistrationError(`${where}: ${error.message}`);
      throw error;
    }
  }

  /** A raw JSON Schema compiled once; the returned check lists the violations of a value. */
  compileSchema(schema: JsonObject, label: string): (value: unknown) => FieldViolation[] {
    return this.schemas.compile(schema, label);
  }

  /** Binds arguments against a raw JSON Schema: validated, then handed over as the plain object. */
  rawBinder(schema: JsonObject, where: string): ArgumentBinder {
    const check = this.compileSchema(schema, `${where} inputSchema`);
    return async (raw) => {
      const value = raw ?? {};
      const violations = check(value);
      return violations.length === 0 ? { ok: true, value } : { ok: false, violations };
    };
  }

  private middleware(cls: Function, methodName: string, own: Middleware[] | undefined): Middleware[] {
    const list = [...declaredMiddleware(cls, methodName), ...(own ?? [])];
    for (const m of list) if (typeof m !== "function") throw new RegistrationError(`${cls.name}.${methodName}: middleware must be functions`);
    return list;
  }
}

function planDeclared(
  decl: ParamDeclaration,
  type: unknown,
  where: string,
  kind: "tool" | "resource" | "prompt",
  rawInput: boolean,
  hasDto: boolean,
): { plan: ParamPlan; dto?: Function } {
  if (decl.kind === "ctx") return { plan: { kind: "ctx" } };
  if (decl.kind === "elicit") return { plan: { kind: "elicit", key: decl.key } };
  if (decl.name !== undefined) {
    if (kind === "tool") throw new RegistrationError(`${where}: @Arg("${decl.name}") names a template variable; a tool takes its arguments as one DTO with @Arg()`);
    return { plan: { kind: "argument", name: decl.name } };
  }
  if (kind === "resource") throw new RegistrationError(`${where}: a resource binds template variables with @Arg("name")`);
  if (hasDto) throw new RegistrationError(`${where}: more than one @Arg() parameter`);
  if (!isDtoClass(type)) {
    if (kind === "tool" && rawInput) return { plan: { kind: "arguments" } };
    throw new RegistrationError(`${where}: @Arg() parameter ${decl.index} must be typed with a DTO class (found ${typeName(type)}), or the tool must declare a raw input schema`);
  }
  return { plan: { kind: "arguments" }, dto: type as Function };
}

function isDtoClass(type: unknown): boolean {
  return typeof type === "function" && !PLAIN_TYPES.has(type);
}

function typeName(type: unknown): string {
  return typeof type === "function" ? type.name : String(type);
}
