import { paramDeclarations, type ComponentDeclaration, type ParamDeclaration } from "../decorators/component-declaration";
import { declaredMiddleware } from "../decorators/use-middleware";
import { declaredScopes } from "../decorators/scopes";
import { checkScopes } from "./scope-hierarchy";
import type { ComponentRef, Middleware } from "../protocol/middleware";
import { checkRateLimit, type RateLimit } from "../protocol/rate-limit";
import type { JsonObject } from "../protocol/wire-types";
import { dtoToJsonSchema, SchemaGenerationError } from "../schema/dto-json-schema";
import { UNDECORATED_DTO_FIX, type FieldViolation } from "../schema/dto-validator";
import { JsonSchemaValidator } from "../schema/json-schema-validator";
import type { ArgumentBinder, ComponentDefinition, ElicitSpec, ParamPlan } from "./component-definition";
import { elicitSpecs } from "./elicit-specs";
import { RegistrationError } from "./registration-error";

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const PLAIN_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt]);

/** Where a DTO is used, for messages: the place ("parameter 0 (@Arg())") and how to declare the component without one. */
export interface DtoUse {
  readonly place: string;
  readonly without: string;
}

/** One `@Tool`, `@Resource` or `@Prompt` declaration, as the decorators recorded it. */
export interface DeclaredComponent {
  readonly cls: Function;
  readonly declaration: ComponentDeclaration;
  /** "Class.method", for messages. */
  readonly where: string;
}

/** The fields of a `ComponentDefinition` that do not depend on its feature. */
export type CommonFields = Pick<
  ComponentDefinition,
  | "ref"
  | "where"
  | "token"
  | "methodName"
  | "params"
  | "middleware"
  | "elicits"
  | "carriedFlow"
  | "descriptor"
  | "timeoutMs"
  | "rateLimit"
  | "scopes"
>;

/** What every kind of component shares, planned from its declaration. */
export interface CommonPlan {
  readonly params: ParamPlan[];
  /** The DTO of an `@Arg()` parameter (or a lone undecorated DTO parameter), if any. */
  readonly inputDto?: Function;
  /** Where that DTO is declared, for messages: "parameter 0 (@Arg())". */
  readonly inputPlace?: string;
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
      const message = error instanceof Error ? error.message : String(error);
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
    const reflected: unknown[] | undefined = Reflect.getMetadata("design:paramtypes", cls.prototype, methodName);
    const types: unknown[] = reflected ?? [];
    const arity = Math.max(
      types.length,
      // The declaration was recorded by a decorator on this very method, so it exists.
      (cls.prototype as Record<string, Function>)[methodName]!.length,
      ...declared.map((d) => d.index + 1),
    );
    // With emitDecoratorMetadata on, TypeScript records the parameter types of every decorated
    // method (a method decorator, or one on a parameter); none recorded means the option is off,
    // which matters for a parameter whose type is its DTO (@Arg(), or a lone undecorated one).
    if (reflected === undefined && (declared.length > 0 || methodName !== "handle")) {
      const needsType = (index: number) => {
        const decl = declared.find((d) => d.index === index);
        return decl === undefined || (decl.kind === "arg" && decl.name === undefined);
      };
      if (Array.from({ length: arity }, (_, index) => index).some(needsType)) throw missingDecoratorMetadata(where);
    }
    const params: ParamPlan[] = [];
    let inputDto: Function | undefined;
    let inputPlace: string | undefined;
    for (let index = 0; index < arity; index++) {
      const decl = declared.find((d) => d.index === index);
      const type = types[index];
      if (!decl) {
        if (arity === 1 && kind !== "resource" && isDtoClass(type)) {
          inputDto = type as Function;
          inputPlace = "parameter 0 (the arguments DTO)";
          params.push({ kind: "arguments" });
          continue;
        }
        throw new RegistrationError(`${where}: parameter ${index} has no @Arg, @Ctx, @Elicit or @OperationId decorator`);
      }
      const planned = planDeclared(decl, type, where, kind, rawInput, inputDto !== undefined);
      if (planned.dto) {
        inputDto = planned.dto;
        inputPlace = `parameter ${index} (@Arg())`;
      }
      params.push(planned.plan);
    }
    return { params, inputDto, inputPlace, elicits: elicitSpecs(declared, where), middleware: this.middleware(cls, methodName, own) };
  }

  /**
   * The plan of a component that runs no method of its own (a class-level `@View` with its `html`
   * option: its feature supplies the value): no parameters, no questions, and the middleware of
   * its class and its `middleware` option.
   */
  contentPlan(component: DeclaredComponent, own: Middleware[] | undefined): CommonPlan {
    return { params: [], elicits: [], middleware: this.middleware(component.cls, component.declaration.methodName, own) };
  }

  /** The fields every definition has, from the declaration, its plan and its descriptor. */
  common(component: DeclaredComponent, plan: CommonPlan, ref: ComponentRef, descriptor: JsonObject): CommonFields {
    const { params, elicits, middleware } = plan;
    const carriedFlow = elicits.length > 0 || params.some((p) => p.kind === "operationId");
    const timeoutMs = (component.declaration.options as { timeoutMs?: unknown }).timeoutMs;
    if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || !Number.isSafeInteger(timeoutMs) || timeoutMs < 1)) {
      throw new RegistrationError(`${component.where}: timeoutMs must be a positive integer number of milliseconds`);
    }
    const rateLimit = (component.declaration.options as { rateLimit?: unknown }).rateLimit;
    let checkedLimit: RateLimit | false | undefined;
    try {
      checkedLimit =
        rateLimit === undefined || rateLimit === false ? rateLimit : checkRateLimit(rateLimit, `${component.where}: rateLimit`);
    } catch (error) {
      throw new RegistrationError(error instanceof Error ? error.message : String(error));
    }
    const own = checkScopes((component.declaration.options as { scopes?: unknown }).scopes, component.where);
    const scopes = checkScopes([...declaredScopes(component.cls, component.declaration.methodName), ...own], component.where);
    return {
      ref,
      where: component.where,
      token: component.cls,
      scopes,
      methodName: component.declaration.methodName,
      params,
      middleware,
      elicits,
      carriedFlow,
      descriptor,
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(checkedLimit !== undefined && { rateLimit: checkedLimit }),
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
      if (earlier)
        throw new RegistrationError(
          `${component.where}: duplicate ${kind} name "${definition.name}" (already declared by ${earlier.where})`,
        );
      compiled.set(definition.name, definition);
    }
    return compiled;
  }

  /** The JSON Schema of a tool's or prompt's arguments DTO: its `@Arg()` parameter, or the arguments option. */
  argumentsSchema(dto: Function, where: string, plan: CommonPlan, kind: "tool" | "prompt"): JsonObject {
    const fromParameter = plan.inputDto === dto;
    return this.dtoSchema(dto, where, {
      place: fromParameter ? plan.inputPlace! : "the arguments option",
      without: `A ${kind} without arguments ${fromParameter ? "takes no @Arg() parameter" : "leaves the arguments option out"}.`,
    });
  }

  /**
   * A DTO's JSON Schema, with conversion problems as registration errors naming where the DTO is
   * used; a DTO with no class-validator decorators is refused with what to write instead.
   */
  dtoSchema(dto: Function, where: string, use: DtoUse): JsonObject {
    try {
      return dtoToJsonSchema(dto);
    } catch (error) {
      if (!(error instanceof SchemaGenerationError)) throw error;
      const fix =
        error.reason === "undecorated"
          ? `, so class-validator would refuse every value (unknownValue). ${UNDECORATED_DTO_FIX} ${use.without}`
          : "";
      throw new RegistrationError(`${where}: ${use.place}: ${error.message}${fix}`);
    }
  }

  /** A raw JSON Schema compiled once; the returned check lists the violations of a value. */
  compileSchema(schema: JsonObject, label: string): (value: unknown) => FieldViolation[] {
    return this.schemas.compile(schema, label);
  }

  /**
   * Binds arguments against a raw JSON Schema: validated, then handed over as the plain object.
   * `deferred`: the schema is the framework's own (valid), compiled at first use, not at startup.
   */
  rawBinder(schema: JsonObject, where: string, options: { readonly deferred?: boolean } = {}): ArgumentBinder {
    const check = this.schemas.compile(schema, `${where} inputSchema`, options);
    return (raw) => {
      const value = raw ?? {};
      const violations = check(value);
      return violations.length === 0 ? { ok: true, value } : { ok: false, violations };
    };
  }

  private middleware(cls: Function, methodName: string, own: Middleware[] | undefined): Middleware[] {
    const list = [...declaredMiddleware(cls, methodName), ...(own ?? [])];
    for (const m of list)
      if (typeof m !== "function") throw new RegistrationError(`${cls.name}.${methodName}: middleware must be functions`);
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
  if (decl.kind === "operationId") {
    if (type !== String && type !== undefined && type !== Object) {
      throw new RegistrationError(`${where}: @OperationId() parameter ${decl.index} is a string (found ${typeName(type)})`);
    }
    return { plan: { kind: "operationId" } };
  }
  if (decl.kind === "elicit") return { plan: { kind: "elicit", key: decl.key } };
  if (decl.name !== undefined) {
    if (kind === "tool")
      throw new RegistrationError(
        `${where}: @Arg("${decl.name}") names a template variable; a tool takes its arguments as one DTO with @Arg()`,
      );
    return { plan: { kind: "argument", name: decl.name } };
  }
  if (kind === "resource") throw new RegistrationError(`${where}: a resource binds template variables with @Arg("name")`);
  if (hasDto) throw new RegistrationError(`${where}: more than one @Arg() parameter`);
  if (!isDtoClass(type)) {
    if (kind === "tool" && rawInput) return { plan: { kind: "arguments" } };
    throw new RegistrationError(
      `${where}: @Arg() parameter ${decl.index} must be typed with a DTO class (found ${typeName(type)}), or the tool must declare a raw input schema`,
    );
  }
  return { plan: { kind: "arguments" }, dto: type as Function };
}

/** The error for a method whose parameter types were not recorded: the compiler options to set. */
function missingDecoratorMetadata(where: string): RegistrationError {
  return new RegistrationError(
    `${where}: the parameter types of this method were not recorded, so the DTO of its arguments cannot be known. ` +
      'TypeScript records them only with "emitDecoratorMetadata": true (and "experimentalDecorators": true) in the compilerOptions ' +
      "of your tsconfig.json (ts-jest reads the same file); a compiler that drops decorator metadata (esbuild, swc without it) cannot build this app",
  );
}

function isDtoClass(type: unknown): boolean {
  return typeof type === "function" && !PLAIN_TYPES.has(type);
}

function typeName(type: unknown): string {
  return typeof type === "function" ? type.name : String(type);
}
