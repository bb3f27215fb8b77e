import { completionProviders, type CompletionProvider } from "../../decorators/complete";
import type { PromptOptions } from "../../decorators/prompt";
import type { DtoClass } from "../../protocol/dto-class";
import { ErrorCode, McpError } from "../../protocol/errors";
import type { JsonObject } from "../../protocol/wire-types";
import { describeViolations, dtoValidator, firstViolations } from "../../schema/dto-validator";
import type { ArgumentBinder, ComponentDefinition } from "../component-definition";
import { endedQuestionError } from "../ended-question";
import type { ComponentCompiler, DeclaredComponent } from "../component-compiler";
import { RegistrationError } from "../registration-error";
import { shapePromptResult } from "./prompt-result";

export interface PromptDefinition extends ComponentDefinition {
  readonly name: string;
}

const NO_ARGUMENTS: ArgumentBinder = async (raw) =>
  raw === undefined || (typeof raw === "object" && raw !== null && Object.keys(raw).length === 0)
    ? { ok: true, value: {} }
    : { ok: false, violations: [{ field: "(root)", constraint: "noArguments", message: "this prompt takes no arguments" }] };

/**
 * Compiles one `@Prompt` declaration: its arguments (string fields of a DTO, with their
 * `@Complete` providers), the descriptor, and the prompt's rules: invalid arguments and a
 * declined question are -32602 errors.
 */
export function compilePrompt(component: DeclaredComponent, options: PromptOptions, compiler: ComponentCompiler): PromptDefinition {
  const { where } = component;
  const name = compiler.name(component, options.name, "prompt");
  const plan = compiler.plan(component, "prompt", options.middleware);
  if (plan.inputDto && options.arguments)
    throw new RegistrationError(`${where}: arguments declared twice (@Arg() parameter and the arguments option)`);
  const dto = (plan.inputDto ?? options.arguments) as DtoClass | undefined;
  let args: JsonObject[] = [];
  let completions: Record<string, CompletionProvider> = {};
  let bindArguments = NO_ARGUMENTS;
  if (dto) {
    const schema = compiler.argumentsSchema(dto, where, plan, "prompt");
    const props = schema.properties as Record<string, JsonObject>;
    const required = (schema.required as string[] | undefined) ?? [];
    for (const [prop, propSchema] of Object.entries(props)) {
      if (propSchema.type !== "string")
        throw new RegistrationError(
          `${where}: prompt argument "${prop}" of ${dto.name} must be a string field (prompt arguments are strings)`,
        );
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
    const validate = dtoValidator(dto);
    bindArguments = (raw) => validate(raw ?? {});
  }
  const descriptor: JsonObject = {
    name,
    ...(options.title !== undefined && { title: options.title }),
    ...(options.description !== undefined && { description: options.description }),
    arguments: args,
    ...(options.icons !== undefined && { icons: options.icons }),
    ...(options._meta !== undefined && { _meta: options._meta }),
  };
  const shapeOf = { where, descriptor };
  return {
    ...compiler.common(component, plan, { kind: "prompt", name }, descriptor),
    name,
    completion: { refType: "ref/prompt", key: name, providers: completions },
    async bind(ctx) {
      const bound = await bindArguments(ctx.requestParams.arguments);
      if (bound.ok) return { ok: true, whole: bound.value, named: bound.value as Record<string, unknown> };
      const violations = firstViolations(bound.violations).map(({ field, constraint }) => ({ field, constraint }));
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${describeViolations(bound.violations)}`, {
        violations,
      });
    },
    declined: (key, action) => {
      throw endedQuestionError(key, action);
    },
    shape: async (value) => shapePromptResult(shapeOf, value),
    recover: () => undefined,
  };
}
