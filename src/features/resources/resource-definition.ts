import type { ResourceOptions } from "../../decorators/resource";
import type { CacheScope, JsonObject } from "../../protocol/wire-types";
import type { ComponentDefinition } from "../component-definition";
import { endedQuestionError } from "../ended-question";
import type { ComponentCompiler, DeclaredComponent } from "../component-compiler";
import { RegistrationError } from "../registration-error";
import { shapeResourceResult } from "./resource-result";
import { UriTemplate } from "./uri-template";

export interface ResourceDefinition extends ComponentDefinition {
  readonly uri?: string;
  readonly template?: UriTemplate;
  readonly mimeType?: string;
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
}

/**
 * Compiles one `@Resource` declaration: a fixed uri, or a template whose variables bind to
 * `@Arg("name")` parameters and may have completion providers. What the method returns becomes
 * contents with the declared cache hints; nothing returned means the resource does not exist.
 */
export function compileResource(component: DeclaredComponent, options: ResourceOptions, compiler: ComponentCompiler): ResourceDefinition {
  const { where } = component;
  if ((options.uri === undefined) === (options.uriTemplate === undefined)) {
    throw new RegistrationError(`${where}: a resource needs exactly one of uri and uriTemplate`);
  }
  const name = compiler.name(component, options.name, "resource");
  const ttlMs = options.ttlMs ?? 0;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new RegistrationError(`${where}: ttlMs must be a non-negative integer`);
  const cacheScope = options.cacheScope ?? "private";
  if (cacheScope !== "public" && cacheScope !== "private")
    throw new RegistrationError(`${where}: cacheScope must be "public" or "private"`);
  const plan = compiler.plan(component, "resource", options.middleware);
  let template: UriTemplate | undefined;
  if (options.uriTemplate !== undefined) {
    template = compileTemplate(options.uriTemplate, plan.params, options.complete, where);
  } else {
    if (plan.params.some((p) => p.kind === "argument" || p.kind === "arguments")) {
      throw new RegistrationError(`${where}: a fixed-uri resource has no variables to bind with @Arg`);
    }
    if (options.complete) throw new RegistrationError(`${where}: completion needs a uriTemplate`);
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
  const shapeOf = { where, mimeType: options.mimeType, ttlMs, cacheScope };
  return {
    ...compiler.common(component, plan, { kind: "resource", name: options.uri ?? options.uriTemplate! }, descriptor),
    ...(template && { completion: { refType: "ref/resource", key: template.template, providers: options.complete ?? {} } }),
    uri: options.uri,
    template,
    mimeType: options.mimeType,
    ttlMs,
    cacheScope,
    bind: async (_ctx, matched) => ({ ok: true, whole: undefined, named: matched }),
    declined: (key, action) => {
      throw endedQuestionError(key, action);
    },
    shape: async (value, ctx) => shapeResourceResult(shapeOf, ctx.requestParams.uri as string, value),
    recover: () => undefined,
  };
}

/** Every template variable bound to exactly one `@Arg("name")` parameter, and completion only for variables. */
function compileTemplate(
  text: string,
  params: ComponentDefinition["params"],
  complete: ResourceOptions["complete"],
  where: string,
): UriTemplate {
  let template: UriTemplate;
  try {
    template = new UriTemplate(text);
  } catch (error) {
    throw new RegistrationError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const bound = params.filter((p): p is { kind: "argument"; name: string } => p.kind === "argument").map((p) => p.name);
  const unbound = template.variables.filter((v) => !bound.includes(v));
  // Each @Arg that names no variable, with its position: most often a misspelt variable.
  const stray = params.flatMap((p, index) =>
    p.kind === "argument" && !template.variables.includes(p.name) ? [`parameter ${index} is @Arg(${JSON.stringify(p.name)})`] : [],
  );
  const variables = template.variables.map((v) => `{${v}}`).join(", ");
  if (unbound.length > 0) {
    const names = unbound.map((v) => `{${v}}`).join(", ");
    const fix = unbound.map((v) => `@Arg(${JSON.stringify(v)}) ${/^[A-Za-z_$][\w$]*$/.test(v) ? v : "value"}: string`).join(", ");
    throw new RegistrationError(
      `${where}: the template "${text}" has the variable(s) ${names}, which no parameter binds` +
        (stray.length > 0 ? `, while ${stray.join(" and ")}, which is not a variable of the template` : "") +
        `. Bind each variable with a parameter named after it: ${fix}` +
        (stray.length > 0 ? ` (or rename the template's variable to match the @Arg)` : ""),
    );
  }
  if (stray.length > 0)
    throw new RegistrationError(
      `${where}: ${stray[0]}, which is not a variable of "${text}" (its variables: ${variables}); rename it to one of them or remove it`,
    );
  for (const key of Object.keys(complete ?? {})) {
    if (!template.variables.includes(key))
      throw new RegistrationError(`${where}: completion for "${key}", which is not a variable of "${text}"`);
  }
  return template;
}
