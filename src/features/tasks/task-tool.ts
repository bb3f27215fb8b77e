import type { TaskSupport, TaskToolOptions, ToolOptions } from "../../decorators/tool";
import type { RetryPolicy } from "../../stores/task-record";
import { DEFAULT_RERUN_ATTEMPTS, MAX_ATTEMPTS, MAX_TTL_MS } from "../../stores/task-transitions";
import type { DeclaredComponent } from "../component-compiler";
import type { ComponentDefinition } from "../component-definition";
import { RegistrationError } from "../registration-error";
import { TASKS_EXTENSION } from "./tasks-extension";
import { checkInteger, checkTtl, type TasksSettings } from "./tasks-options";

/** A tool that runs as a task, with its settings resolved against the feature's defaults. */
export interface TaskTool {
  readonly component: ComponentDefinition;
  readonly name: string;
  readonly support: TaskSupport;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly retryPolicy: RetryPolicy;
  readonly maxAttempts: number;
}

/**
 * The task tools among the compiled components: those whose `@Tool({ task })` asked for this
 * feature, each checked once (a wrong value is a RegistrationError naming `Class.method`).
 */
export function compileTaskTools(
  components: readonly ComponentDefinition[],
  declarations: readonly DeclaredComponent[],
  settings: TasksSettings,
): Map<ComponentDefinition, TaskTool> {
  const tools = new Map<ComponentDefinition, TaskTool>();
  for (const component of components) {
    if (!component.requiredFeatures?.some((feature) => feature.name === TASKS_EXTENSION)) continue;
    const declared = declarations.find(
      (d) => d.cls === component.token && d.declaration.methodName === component.methodName && d.declaration.kind === "tool",
    );
    const option = (declared?.declaration.options as ToolOptions | undefined)?.task;
    if (option === undefined) continue;
    tools.set(component, taskTool(component, option, settings));
  }
  return tools;
}

function taskTool(component: ComponentDefinition, option: TaskSupport | TaskToolOptions, settings: TasksSettings): TaskTool {
  const where = `${component.where}: task`;
  const options: TaskToolOptions = typeof option === "string" ? { support: option } : option;
  if (typeof options !== "object" || options === null)
    throw new RegistrationError(`${where} must be "optional", "required" or { support, ... }`);
  if (options.support !== "optional" && options.support !== "required") {
    throw new RegistrationError(`${where}.support must be "optional" or "required", got ${JSON.stringify(options.support)}`);
  }
  const retryPolicy = options.retryPolicy ?? "fail";
  if (retryPolicy !== "fail" && retryPolicy !== "rerun")
    throw new RegistrationError(`${where}.retryPolicy must be "fail" or "rerun", got ${JSON.stringify(retryPolicy)}`);
  if (retryPolicy === "fail" && options.maxAttempts !== undefined && options.maxAttempts !== 1) {
    throw new RegistrationError(`${where}.maxAttempts applies to retryPolicy "rerun" only`);
  }
  return {
    component,
    name: component.ref.name,
    support: options.support,
    ttlMs: options.ttlMs === undefined ? settings.ttlMs : checkTtl(options.ttlMs, `${where}.ttlMs`),
    pollIntervalMs:
      options.pollIntervalMs === undefined
        ? settings.pollIntervalMs
        : checkInteger(options.pollIntervalMs, `${where}.pollIntervalMs`, MAX_TTL_MS),
    retryPolicy,
    maxAttempts:
      retryPolicy === "fail" ? 1 : checkInteger(options.maxAttempts ?? DEFAULT_RERUN_ATTEMPTS, `${where}.maxAttempts`, MAX_ATTEMPTS),
  };
}
