import { componentDeclarations, paramDeclarations, type ParamDeclaration } from "../decorators/component-declaration";
import type { DtoClass } from "../protocol/dto-class";
import { completionProviders, type CompletionProvider } from "../decorators/complete";
import { declaredMiddleware } from "../decorators/use-middleware";
import type { ToolOptions } from "../decorators/tool";
import type { ResourceOptions } from "../decorators/resource";
import type { PromptOptions } from "../decorators/prompt";
import type { Middleware } from "../protocol/middleware";
import type { JsonObject } from "../protocol/wire-types";
import { dtoToJsonSchema, SchemaGenerationError } from "../schema/dto-json-schema";
import { validateDto } from "../schema/dto-validator";
import { JsonSchemaValidator } from "../schema/json-schema-validator";
import { UriTemplate } from "./uri-template";
import { checkStaticQuestion } from "../dispatch/question-builder";
import type {
  ArgumentBinder,
  ComponentDefinition,
  ElicitSpec,
  OutputCheck,
  ParamPlan,
  PromptDefinition,
  ResourceDefinition,
  ToolDefinition,
} from "./definitions";

/** Thrown while the app is built: names the class and method at fault. */
export class RegistrationError extends Error {
  override readonly name = "RegistrationError";
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const EMPTY_INPUT_SCHEMA: JsonObject = { type: "object", additionalProperties: false };

/**
 * Reads decorator metadata once and turns it into plain definitions the dispatcher routes on.
 * Lists are kept sorted by name (tools, prompts) or uri (resources) so every list is deterministic.
 */
export class ComponentRegistry {
  readonly tools = new Map<string, ToolDefinition>();
  readonly prompts = new Map<string, PromptDefinition>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates: ResourceDefinition[] = [];
  /** Descriptor lists, built once. */
  readonly toolList: JsonObject[];
  readonly promptList: JsonObject[];
  readonly resourceList: JsonObject[];
  readonly templateList: JsonObject[];
  private readonly schemas = new JsonSchemaValidator();

  constructor(classes: readonly Function[]) {
    const seen = new Set<Function>();
    for (const cls of classes) {
      if (typeof cls !== "function") throw new RegistrationError(`components: expected a class, got ${typeof cls}`);
      if (seen.has(cls)) throw new RegistrationError(`${cls.name}: listed twice in components`);
      seen.add(cls);
      const declarations = componentDeclarations(cls);
      if (declarations.length === 0) {
        throw new RegistrationError(`${cls.name}: no @Tool, @Resource or @Prompt declaration found`);
      }
      for (const decl of declarations) {
        const where = `${cls.name}.${decl.methodName}`;
        try {
          if (typeof (cls.prototype as Record<string, unknown>)[decl.methodName] !== "function") {
            throw new RegistrationError(`${where}: method ${decl.methodName}() not found (a class component needs a handle() method)`);
          }
          if (decl.kind === "tool") this.addTool(cls, decl.methodName, decl.options, where);
          else if (decl.kind === "resource") this.addResource(cls, decl.methodName, decl.options, where);
          else this.addPrompt(cls, decl.methodName, decl.options, where);
        } catch (error) {
          if (error instanceof RegistrationError) throw error;
          const message = (error as Error).message;
          throw new RegistrationError(message.startsWith(where) ? message : `${where}: ${message}`);
        }
      }
    }
    const byKey = (a: JsonObject, b: JsonObject, key: string) => String(a[key]).localeCompare(String(b[key]), "en");
    this.toolList = [...this.tools.values()].map((t) => t.descriptor).sort((a, b) => byKey(a, b, "name"));
    this.promptList = [...this.prompts.values()].map((p) => p.descriptor).sort((a, b) => byKey(a, b, "name"));
    this.resourceList = [...this.resources.values()].map((r) => r.descriptor).sort((a, b) => byKey(a, b, "uri"));
    this.templates.sort((a, b) => a.template!.template.localeCompare(b.template!.template, "en"));
    this.templateList = this.templates.map((t) => t.descriptor);
  }

  get size(): number {
    return this.tools.size + this.prompts.size + this.resources.size + this.templates.length;
  }

  /** The resource for a uri: an exact match first, then the first matching template (sorted order). */
  findResource(uri: string): { definition: ResourceDefinition; variables: Record<string, string> } | undefined {
    const exact = this.resources.get(uri);
    if (exact) return { definition: exact, variables: {} };
    for (const definition of this.templates) {
      const variables = definition.template!.match(uri);
      if (variables) return { definition, variables };
    }
    return undefined;
  }

  all(): ComponentDefinition[] {
    return [...this.tools.values(), ...this.prompts.values(), ...this.resources.values(), ...this.templates];
  }

  // ---- tools ----

  private addTool(cls: Function, methodName: string, options: ToolOptions, where: string): void {
    const name = checkName(options.name ?? (methodName === "handle" ? cls.name : methodName), where, "tool");
    if (this.tools.has(name)) throw new RegistrationError(`${where}: duplicate tool name "${name}" (already declared by ${this.tools.get(name)!.where})`);
    const declared = paramDeclarations(cls, methodName);
    const rawInput = options.arguments !== undefined && !isClass(options.arguments);
    const { params, inputDto } = this.planParams(cls, methodName, declared, where, "tool", rawInput);
    if (inputDto && options.arguments) throw new RegistrationError(`${where}: arguments declared twice (@Arg() parameter and the arguments option)`);
    const input = inputDto ?? options.arguments;
    let inputSchema: JsonObject;
    let bindArguments: ArgumentBinder;
    if (input === undefined) {
      inputSchema = EMPTY_INPUT_SCHEMA;
      bindArguments = this.rawBinder(EMPTY_INPUT_SCHEMA, where);
    } else if (isClass(input)) {
      inputSchema = this.dtoSchema(input, where);
      const dto = input as DtoClass;
      bindArguments = (raw) => validateDto(dto, raw ?? {});
    } else {
      if ((input as JsonObject).type !== "object") throw new RegistrationError(`${where}: a raw inputSchema must have type "object" at its root`);
      inputSchema = input as JsonObject;
      bindArguments = this.rawBinder(inputSchema, where);
    }
    let outputSchema: JsonObject | undefined;
    let checkOutput: OutputCheck | undefined;
    if (options.output !== undefined) {
      if (isClass(options.output)) {
        outputSchema = this.dtoSchema(options.output, where);
        const dto = options.output as DtoClass;
        checkOutput = async (value) => {
          const r = await validateDto(dto, value);
          return r.ok ? [] : r.violations;
        };
      } else {
        outputSchema = options.output as JsonObject;
        const check = this.schemas.compile(outputSchema, `${where} outputSchema`);
        checkOutput = async (value) => check(value);
      }
    }
    const descriptor: JsonObject = {
      name,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      inputSchema,
      ...(outputSchema !== undefined && { outputSchema }),
      ...(options.annotations !== undefined && { annotations: options.annotations }),
      ...(options.icons !== undefined && { icons: options.icons }),
      ...(options._meta !== undefined && { _meta: options._meta }),
    };
    this.tools.set(name, {
      kind: "tool",
      name,
      ref: { kind: "tool", name },
      where,
      token: cls,
      methodName,
      params,
      middleware: this.middleware(cls, methodName, options.middleware),
      elicits: this.elicits(declared, where),
      descriptor,
      bindArguments,
      checkOutput,
      headerParams: headerParams(inputSchema, where),
    });
  }

  // ---- resources ----

  private addResource(cls: Function, methodName: string, options: ResourceOptions, where: string): void {
    if ((options.uri === undefined) === (options.uriTemplate === undefined)) {
      throw new RegistrationError(`${where}: a resource needs exactly one of uri and uriTemplate`);
    }
    const name = checkName(options.name ?? (methodName === "handle" ? cls.name : methodName), where, "resource");
    const ttlMs = options.ttlMs ?? 0;
    if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new RegistrationError(`${where}: ttlMs must be a non-negative integer`);
    const cacheScope = options.cacheScope ?? "private";
    if (cacheScope !== "public" && cacheScope !== "private") throw new RegistrationError(`${where}: cacheScope must be "public" or "private"`);
    const declared = paramDeclarations(cls, methodName);
    const { params } = this.planParams(cls, methodName, declared, where, "resource");
    let template: UriTemplate | undefined;
    if (options.uriTemplate !== undefined) {
      try {
        template = new UriTemplate(options.uriTemplate);
      } catch (error) {
        throw new RegistrationError(`${where}: ${(error as Error).message}`);
      }
      const bound = params.filter((p): p is { kind: "argument"; name: string } => p.kind === "argument").map((p) => p.name);
      const unbound = template.variables.filter((v) => !bound.includes(v));
      if (unbound.length > 0) {
        throw new RegistrationError(`${where}: template variable(s) ${unbound.map((v) => `{${v}}`).join(", ")} of "${options.uriTemplate}" not bound to an @Arg("name") parameter`);
      }
      const unknown = bound.filter((b) => !template!.variables.includes(b));
      if (unknown.length > 0) throw new RegistrationError(`${where}: @Arg("${unknown[0]}") is not a variable of "${options.uriTemplate}"`);
      for (const key of Object.keys(options.complete ?? {})) {
        if (!template.variables.includes(key)) throw new RegistrationError(`${where}: completion for "${key}", which is not a variable of "${options.uriTemplate}"`);
      }
    } else {
      if (params.some((p) => p.kind === "argument" || p.kind === "arguments")) {
        throw new RegistrationError(`${where}: a fixed-uri resource has no variables to bind with @Arg`);
      }
      if (options.complete) throw new RegistrationError(`${where}: completion needs a uriTemplate`);
      if (this.resources.has(options.uri!)) throw new RegistrationError(`${where}: duplicate resource uri "${options.uri}" (already declared by ${this.resources.get(options.uri!)!.where})`);
    }
    if (template && this.templates.some((t) => t.template!.template === template!.template)) {
      throw new RegistrationError(`${where}: duplicate resource template "${template.template}"`);
    }
    const descriptor: JsonObject = {
      ...(options.uri !== undefined ? { uri: options.uri } : { uriTemplate: options.uriTemplate }),
      name,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      ...(options.mimeType !== undefined && { mimeType: options.mimeType }),
      ...(options.size !== undefined && options.uri !== undefined && { size: options.size }),
      ...(options.annotations !== undefined && { annotations: options.annotations }),
      ...(options.icons !== undefined && { icons: options.icons }),
      ...(options._meta !== undefined && { _meta: options._meta }),
    };
    const definition: ResourceDefinition = {
      kind: "resource",
      ref: { kind: "resource", name: options.uri ?? options.uriTemplate! },
      where,
      token: cls,
      methodName,
      params,
      middleware: this.middleware(cls, methodName, options.middleware),
      elicits: this.elicits(declared, where),
      descriptor,
      uri: options.uri,
      template,
      mimeType: options.mimeType,
      ttlMs,
      cacheScope,
      completions: options.complete ?? {},
    };
    if (template) this.templates.push(definition);
    else this.resources.set(options.uri!, definition);
  }

  // ---- prompts ----

  private addPrompt(cls: Function, methodName: string, options: PromptOptions, where: string): void {
    const name = checkName(options.name ?? (methodName === "handle" ? cls.name : methodName), where, "prompt");
    if (this.prompts.has(name)) throw new RegistrationError(`${where}: duplicate prompt name "${name}" (already declared by ${this.prompts.get(name)!.where})`);
    const declared = paramDeclarations(cls, methodName);
    const { params, inputDto } = this.planParams(cls, methodName, declared, where, "prompt");
    if (inputDto && options.arguments) throw new RegistrationError(`${where}: arguments declared twice (@Arg() parameter and the arguments option)`);
    const dto = (inputDto ?? options.arguments) as DtoClass | undefined;
    let args: JsonObject[] = [];
    let required: string[] = [];
    let completions: Record<string, CompletionProvider> = {};
    let bindArguments: ArgumentBinder = async (raw) =>
      raw === undefined || (typeof raw === "object" && raw !== null && Object.keys(raw).length === 0)
        ? { ok: true, value: {} }
        : { ok: false, violations: [{ field: "(root)", constraint: "noArguments", message: "this prompt takes no arguments" }] };
    if (dto) {
      const schema = this.dtoSchema(dto, where);
      const props = schema.properties as Record<string, JsonObject>;
      required = (schema.required as string[] | undefined) ?? [];
      for (const [prop, propSchema] of Object.entries(props)) {
        if (propSchema.type !== "string") throw new RegistrationError(`${where}: prompt argument "${prop}" of ${dto.name} must be a string field (prompt arguments are strings)`);
      }
      args = Object.entries(props).map(([prop, propSchema]) => ({
        name: prop,
        ...(propSchema.title !== undefined && { title: propSchema.title }),
        ...(propSchema.description !== undefined && { description: propSchema.description }),
        required: required.includes(prop),
      }));
      completions = completionProviders(dto);
      for (const key of Object.keys(completions)) {
        if (!(key in props)) throw new RegistrationError(`${where}: @Complete on "${key}", which is not a validated argument of ${dto.name}`);
      }
      bindArguments = (raw) => validateDto(dto, raw ?? {});
    }
    const descriptor: JsonObject = {
      name,
      ...(options.title !== undefined && { title: options.title }),
      ...(options.description !== undefined && { description: options.description }),
      arguments: args,
      ...(options.icons !== undefined && { icons: options.icons }),
      ...(options._meta !== undefined && { _meta: options._meta }),
    };
    this.prompts.set(name, {
      kind: "prompt",
      name,
      ref: { kind: "prompt", name },
      where,
      token: cls,
      methodName,
      params,
      middleware: this.middleware(cls, methodName, options.middleware),
      elicits: this.elicits(declared, where),
      descriptor,
      bindArguments,
      requiredArguments: required,
      completions,
    });
  }

  // ---- shared ----

  /** Maps every method parameter to a source; an undecorated single DTO parameter is the arguments. */
  private planParams(
    cls: Function,
    methodName: string,
    declared: ParamDeclaration[],
    where: string,
    kind: "tool" | "resource" | "prompt",
    rawInput = false,
  ): { params: ParamPlan[]; inputDto?: Function } {
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
      if (decl.kind === "ctx") params.push({ kind: "ctx" });
      else if (decl.kind === "elicit") params.push({ kind: "elicit", key: decl.key });
      else if (decl.name !== undefined) {
        if (kind === "tool") throw new RegistrationError(`${where}: @Arg("${decl.name}") names a template variable; a tool takes its arguments as one DTO with @Arg()`);
        params.push({ kind: "argument", name: decl.name });
      } else {
        if (kind === "resource") throw new RegistrationError(`${where}: a resource binds template variables with @Arg("name")`);
        if (inputDto) throw new RegistrationError(`${where}: more than one @Arg() parameter`);
        if (!isDtoClass(type)) {
          if (kind === "tool" && rawInput) {
            params.push({ kind: "arguments" });
            continue;
          }
          throw new RegistrationError(`${where}: @Arg() parameter ${index} must be typed with a DTO class (found ${typeName(type)}), or the tool must declare a raw input schema`);
        }
        inputDto = type as Function;
        params.push({ kind: "arguments" });
      }
    }
    return { params, inputDto };
  }

  private elicits(declared: ParamDeclaration[], where: string): ElicitSpec[] {
    const specs: ElicitSpec[] = [];
    for (const d of declared) {
      if (d.kind !== "elicit") continue;
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(d.key)) throw new RegistrationError(`${where}: @Elicit key "${d.key}" must be 1 to 64 of A-Za-z0-9_.-`);
      if (specs.some((s) => s.key === d.key)) throw new RegistrationError(`${where}: @Elicit key "${d.key}" used twice`);
      const options = d.options ?? ({} as never);
      if (typeof options.message !== "string" && typeof options.message !== "function") {
        throw new RegistrationError(`${where}: @Elicit("${d.key}") needs a message`);
      }
      const onDecline = options.onDecline ?? "end";
      if (!["end", "optional", "outcome"].includes(onDecline)) throw new RegistrationError(`${where}: @Elicit("${d.key}") onDecline must be "end", "optional" or "outcome"`);
      const computed = typeof d.schema === "function" && !("prototype" in d.schema);
      const spec: ElicitSpec = { key: d.key, source: d.schema as ElicitSpec["source"], computed, options, after: options.after ?? [] };
      if (!computed) {
        try {
          checkStaticQuestion(spec);
        } catch (error) {
          throw new RegistrationError(`${where}: @Elicit("${d.key}"): ${(error as Error).message}`);
        }
      }
      specs.push(spec);
    }
    for (const s of specs) {
      for (const dep of s.after) {
        if (!specs.some((o) => o.key === dep)) throw new RegistrationError(`${where}: @Elicit("${s.key}") is after "${dep}", which is not an @Elicit key of this method`);
      }
    }
    // Topological order; a cycle is a registration error.
    const ordered: ElicitSpec[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (s: ElicitSpec, path: string[]) => {
      if (state.get(s.key) === "done") return;
      if (state.get(s.key) === "visiting") throw new RegistrationError(`${where}: @Elicit order has a cycle: ${[...path, s.key].join(" -> ")}`);
      state.set(s.key, "visiting");
      for (const dep of s.after) visit(specs.find((o) => o.key === dep)!, [...path, s.key]);
      state.set(s.key, "done");
      ordered.push(s);
    };
    for (const s of specs) visit(s, []);
    return ordered;
  }

  private middleware(cls: Function, methodName: string, own: Middleware[] | undefined): Middleware[] {
    const list = [...declaredMiddleware(cls, methodName), ...(own ?? [])];
    for (const m of list) if (typeof m !== "function") throw new RegistrationError(`${cls.name}.${methodName}: middleware must be functions`);
    return list;
  }

  private dtoSchema(dto: Function, where: string): JsonObject {
    try {
      return dtoToJsonSchema(dto);
    } catch (error) {
      if (error instanceof SchemaGenerationError) throw new RegistrationError(`${where}: ${error.message}`);
      throw error;
    }
  }

  private rawBinder(schema: JsonObject, where: string): ArgumentBinder {
    const check = this.schemas.compile(schema, `${where} inputSchema`);
    return async (raw) => {
      const value = raw ?? {};
      const violations = check(value);
      return violations.length === 0 ? { ok: true, value } : { ok: false, violations };
    };
  }
}

function checkName(name: string, where: string, kind: string): string {
  if (!NAME.test(name)) throw new RegistrationError(`${where}: invalid ${kind} name "${name}" (1 to 128 of A-Za-z0-9_.-)`);
  return name;
}

function isClass(value: unknown): value is Function {
  return typeof value === "function";
}

const PLAIN_TYPES = new Set<unknown>([Object, String, Number, Boolean, Array, Function, Promise, Symbol, BigInt]);

function isDtoClass(type: unknown): boolean {
  return typeof type === "function" && !PLAIN_TYPES.has(type);
}

function typeName(type: unknown): string {
  return typeof type === "function" ? type.name : String(type);
}

/**
 * x-mcp-header declarations. The spec allows them only on a property reached from the root through
 * `properties` keys; anywhere else (inside items, oneOf/anyOf/allOf/not, if/then/else, $defs) is a
 * registration error, since clients drop tools whose annotations are invalid.
 */
function headerParams(schema: JsonObject, where: string): ToolDefinition["headerParams"] {
  const out: { property: string; header: string; type: "string" | "integer" | "boolean" }[] = [];
  const props = (schema.properties ?? {}) as Record<string, JsonObject>;
  const misplaced = (node: unknown, path: string, allowed: boolean): string | undefined => {
    if (node === null || typeof node !== "object") return undefined;
    if (!Array.isArray(node) && "x-mcp-header" in node && !allowed) return path;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-mcp-header") continue;
      // Only the root's own `properties.<name>` may carry it (and is checked below).
      const found = misplaced(value, `${path}/${key}`, false);
      if (found) return found;
    }
    return undefined;
  };
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties") {
      for (const [name, prop] of Object.entries(props)) {
        for (const [inner, sub] of Object.entries(prop ?? {})) {
          const found = inner === "x-mcp-header" ? undefined : misplaced(sub, `#/properties/${name}/${inner}`, false);
          if (found) throw new RegistrationError(`${where}: x-mcp-header at ${found} is not allowed (only on a root property reached through properties)`);
        }
      }
      continue;
    }
    const found = misplaced(value, `#/${key}`, false);
    if (found) throw new RegistrationError(`${where}: x-mcp-header at ${found} is not allowed (only on a root property reached through properties)`);
  }
  for (const [property, prop] of Object.entries(props)) {
    const header = prop["x-mcp-header"];
    if (header === undefined) continue;
    if (typeof header !== "string" || header.length === 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
      throw new RegistrationError(`${where}: x-mcp-header on "${property}" must be a non-empty RFC 9110 token`);
    }
    if (out.some((h) => h.header.toLowerCase() === header.toLowerCase())) {
      throw new RegistrationError(`${where}: x-mcp-header "${header}" is declared twice (case-insensitively)`);
    }
    const type = prop.type;
    if (type === "integer" && ((typeof prop.minimum === "number" && prop.minimum < -Number.MAX_SAFE_INTEGER) || (typeof prop.maximum === "number" && prop.maximum > Number.MAX_SAFE_INTEGER))) {
      throw new RegistrationError(`${where}: x-mcp-header on "${property}" needs bounds within ±(2^53−1)`);
    }
    if (type !== "string" && type !== "integer" && type !== "boolean") {
      throw new RegistrationError(`${where}: x-mcp-header on "${property}" needs type string, integer or boolean (found ${JSON.stringify(type)})`);
    }
    out.push({ property, header, type });
  }
  return out;
}
