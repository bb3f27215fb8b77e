import { declareComponent } from "./record-metadata";
import type { CommonComponentOptions, ToolAnnotations } from "./component-options";
import type { DtoClass } from "../protocol/dto-class";
import type { JsonObject } from "../protocol/wire-types";
import type { RetryPolicy } from "../stores/task-record";
import type { ToolVisibility } from "./view";

/**
 * How a tool runs as a task (the tasks extension, SEP-2663), with the tasks feature listed in
 * `McpAppOptions.features`:
 * - `"optional"`: a task when the client declared `io.modelcontextprotocol/tasks` on this
 *   request, otherwise an ordinary call that answers when the method returns;
 * - `"required"`: always a task; a client that did not declare the extension gets -32021.
 */
export type TaskSupport = "optional" | "required";

/** `@Tool({ task })` in full: task support plus this tool's own task settings. */
export interface TaskToolOptions {
  support: TaskSupport;
  /** How long the task stays readable after it is created: a positive integer of ms, or null for ever (default: the tasks feature's, 1 hour). */
  ttlMs?: number | null;
  /** The poll interval suggested to clients, in ms (default: the tasks feature's, 1000). */
  pollIntervalMs?: number;
  /**
   * What happens when the process running the task dies before it ends: `"fail"` (the default)
   * ends it `failed`; `"rerun"` runs the method again on an instance that recovers it, with the
   * same arguments, answers and `idempotencyKey`.
   */
  retryPolicy?: RetryPolicy;
  /** Attempts allowed in all under `"rerun"` (default 3). */
  maxAttempts?: number;
}

export interface ToolOptions extends CommonComponentOptions {
  annotations?: ToolAnnotations;
  /**
   * The arguments: a class-validator DTO (instead of an `@Arg()` parameter) or a raw JSON Schema
   * object (published as `inputSchema` unchanged, arguments validated against it and handed over
   * as a plain object).
   */
  arguments?: DtoClass | JsonObject;
  /** Structured output: a DTO or a raw JSON Schema object. Final structured results are validated against it. */
  output?: DtoClass | JsonObject;
  /**
   * Runs the tool as a task (SEP-2663): `"optional"`, `"required"`, or the full options. The
   * method reaches its task through `@Ctx() ctx: TaskContext`.
   */
  task?: TaskSupport | TaskToolOptions;
  /**
   * The MCP Apps view hosts render for this tool's results (`_meta.ui.resourceUri`, and the older
   * `_meta["ui/resourceUri"]`): a class declared with `@View`, or a view's `ui://` URI. Needs the
   * apps feature (`features: [apps()]`).
   *
   * @example @Tool({ view: WeatherDashboard })
   */
  view?: Function | string;
  /**
   * Who may call the tool (`_meta.ui.visibility`): `["app"]` hides it from the model, and only its
   * views call it, through their host. Default: both. Needs the apps feature.
   */
  visibility?: ToolVisibility[];
}

/**
 * Declares a tool: on a class (its `handle` method runs) or on a method of a service class.
 *
 * @example @Tool({ description: "Add two numbers", annotations: { readOnlyHint: true } })
 */
export function Tool(options: ToolOptions = {}): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    declareComponent(target, propertyKey, (methodName) => ({ kind: "tool", methodName, options }));
  };
}
