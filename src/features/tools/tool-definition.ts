import type { ToolOptions } from "../../decorators/tool";
import type { DtoClass } from "../../protocol/dto-class";
import { andThen, throwsAsRejection } from "../../protocol/maybe-async";
import type { JsonObject } from "../../protocol/wire-types";
import { describeViolations, dtoValidator } from "../../schema/dto-validator";
import type { ArgumentBinder, BoundArguments, ComponentDefinition, OutputCheck, RequiredFeature } from "../component-definition";
import { DECLARATION_FEATURES } from "../../decorators/component-declaration";
import { endedQuestion } from "../ended-question";
import type { ComponentCompiler, DeclaredComponent } from "../component-compiler";
import { OutputSchemaViolation } from "../output-schema-violation";
import { RegistrationError } from "../registration-error";
import { Result } from "../result";
import { isToolError } from "../tool-error";
import { headerParams, type HeaderParam } from "./param-headers";
import { TASKS_EXTENSION } from "../tasks/tasks-extension";
import { shapeToolResult } from "./tool-result";

const EMPTY_INPUT_SCHEMA: JsonObject = { type: "object", additionalProperties: false };

export interface ToolDefinition extends ComponentDefinition {
  readonly name: string;
  /** Properties of inputSchema carrying `x-mcp-header`, for HTTP header validation. */
  readonly headerParams: readonly HeaderParam[];
}

/**
 * Compiles one `@Tool` declaration: its input and output schemas, the argument binder, the
 * descriptor, and the tool's rules: invalid arguments, a declined question and a thrown error
 * are `isError` results the model can read, not protocol errors.
 */
export function compileTool(component: DeclaredComponent, options: ToolOptions, compiler: ComponentCompiler): ToolDefinition {
  const { where } = component;
  const name = compiler.name(component, options.name, "tool");
  const rawInput = options.arguments !== undefined && typeof options.arguments !== "function";
  const plan = compiler.plan(component, "tool", options.middleware, rawInput);
  if (plan.inputDto && options.arguments)
    throw new RegistrationError(`${where}: arguments declared twice (@Arg() parameter and the arguments option)`);
  const input = plan.inputDto ?? options.arguments;
  let inputSchema: JsonObject;
  let bindArguments: ArgumentBinder;
  if (input === undefined) {
    inputSchema = EMPTY_INPUT_SCHEMA;
    bindArguments = compiler.rawBinder(EMPTY_INPUT_SCHEMA, where, { deferred: true });
  } else if (typeof input === "function") {
    inputSchema = compiler.argumentsSchema(input, where, plan, "tool");
    const validate = dtoValidator(input as DtoClass);
    bindArguments = (raw) => validate(raw ?? {});
  } else {
    if (input.type !== "object") throw new RegistrationError(`${where}: a raw inputSchema must have type "object" at its root`);
    inputSchema = input;
    bindArguments = compiler.rawBinder(inputSchema, where);
  }
  const { outputSchema, checkOutput } = compileOutput(options.output, where, compiler);
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
  const shapeOf = { where, checkOutput };
  return {
    ...compiler.common(component, plan, { kind: "tool", name }, descriptor),
    name,
    headerParams: headerParams(inputSchema, where),
    ...requiredFeaturesOf(options),
    bind(ctx) {
      return andThen(bindArguments(ctx.requestParams.arguments), (bound): BoundArguments => {
        if (bound.ok) return { ok: true, whole: bound.value, named: bound.value as Record<string, unknown> };
        return { ok: false, outcome: Result.error(`Invalid arguments for tool ${name}: ${describeViolations(bound.violations)}`) };
      });
    },
    declined: (key, action) => Result.error(`${endedQuestion(key, action)}; the operation ended.`),
    // A refusal is a rejection, as callers of shape() expect; a success may be synchronous.
    shape: (value) => throwsAsRejection(() => shapeToolResult(shapeOf, value)),
    // A ToolError speaks to the model; anything else it hears about only generically.
    recover(error, failure) {
      if (error instanceof OutputSchemaViolation) return undefined;
      return { resultType: "complete", ...Result.error(isToolError(error) ? error.message : failure.text) };
    },
  };
}

/** The features a tool's options need listed: `task` the tasks feature, `view` and `visibility` the apps feature. */
function requiredFeaturesOf(options: ToolOptions): Pick<ToolDefinition, "requiredFeatures"> {
  const features: RequiredFeature[] = [];
  if (options.task !== undefined)
    features.push({
      name: TASKS_EXTENSION,
      fix: 'list the tasks feature in McpApp.create: features: [tasks()] (import { tasks } from "roundtrip-mcp")',
    });
  if (options.view !== undefined || options.visibility !== undefined) features.push(DECLARATION_FEATURES.view!);
  return features.length === 0 ? {} : { requiredFeatures: features };
}

function compileOutput(
  output: ToolOptions["output"],
  where: string,
  compiler: ComponentCompiler,
): { outputSchema?: JsonObject; checkOutput?: OutputCheck } {
  if (output === undefined) return {};
  if (typeof output === "function") {
    const outputSchema = compiler.dtoSchema(output, where, {
      place: "the output option",
      without: "A tool without structured output leaves the output option out.",
    });
    const validate = dtoValidator(output as DtoClass);
    return {
      outputSchema,
      checkOutput: (value) => andThen(validate(value), (r) => (r.ok ? [] : r.violations)),
    };
  }
  const check = compiler.compileSchema(output, `${where} outputSchema`);
  return { outputSchema: output, checkOutput: check };
}
