import type { InboundRequest } from "../protocol/inbound-request";
import type { RequestContext } from "../protocol/request-context";
import type { JsonObject } from "../protocol/wire-types";
import type { ComponentDefinition } from "./component-definition";

/**
 * Runs one component for one request: the retry-envelope check, the middleware chain, the
 * `@Elicit` rounds, the invocation, admission of `input_required` and result shaping. Declared
 * here, where the features that call it live; implemented by the dispatcher one floor up
 * (dependency inversion: a feature never imports the round planner).
 */
export interface ComponentRunner {
  /** `matched` is handed back to the definition's `bind` (a resource template's variables). */
  run(component: ComponentDefinition, request: InboundRequest, matched?: Readonly<Record<string, string>>): Promise<JsonObject>;
}

/** One ready invocation: every `@Elicit` question answered, the arguments bound and validated. */
export interface Invocation {
  readonly component: ComponentDefinition;
  /**
   * The context the component sees (a middleware's replacement, if one passed one on); in a
   * carried flow its `requestState` is the method's own, not the framework's.
   */
  readonly ctx: RequestContext;
  /** Calls the method now, with the bound parameters; what happens when no strategy claims it. */
  run(): Promise<unknown>;
  /** Shapes what the method returned into its final wire result, as an inline call would. */
  finish(value: unknown): Promise<JsonObject>;
}

/**
 * What a strategy did with an invocation: ran it inline (the value is shaped as usual), or took
 * it over and answers with its own wire result (for example `resultType: "task"`), sent as is.
 */
export type ExecutionOutcome = { kind: "inline"; value: unknown } | { kind: "handover"; result: JsonObject };

/**
 * Takes over the invocation of the components it claims, after their `@Elicit` rounds resolved
 * and instead of calling the method inline. The tasks extension is the reason it exists: a
 * task-enabled tool answers `resultType: "task"` and runs in the background.
 */
export interface ExecutionStrategy {
  /** Checked once per component at bootstrap; at most one strategy may claim a component. */
  claims(component: ComponentDefinition): boolean;
  execute(invocation: Invocation): Promise<ExecutionOutcome>;
}
