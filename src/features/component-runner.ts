import type { ElicitResult } from "../protocol/elicit-request";
import type { RequestContext } from "../protocol/request-context";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { ComponentDefinition } from "./component-definition";

/**
 * What a feature's background work (`CompiledFeature.start`) may ask of the components outside any
 * request. Declared here, where the features that call it live; implemented by the dispatcher one
 * floor up (dependency inversion: a feature never imports the round planner). Within a request a
 * feature never calls the dispatcher: its method selects the component and the dispatcher runs it.
 */
export interface ComponentRunner {
  /**
   * Rebuilds the ready invocation a first run recorded (`Invocation.recorded`), for work that
   * outlives its request (a task run again after the process running it died): the arguments
   * are bound and the `@Elicit` answers resolved again, without middleware or rounds. `ctx` is
   * the context the method sees. Throws when the record no longer fits the component (its code
   * changed since).
   */
  restore(component: ComponentDefinition, recorded: RecordedInvocation, ctx: RequestContext): Promise<Invocation>;
}

/** What a ready invocation was made from: enough to make it again without the request. */
export interface RecordedInvocation {
  /** The call's `arguments`, as the client sent them. */
  readonly arguments: unknown;
  /** The `@Elicit` answers by key, as the client gave them. */
  readonly answers: Readonly<Record<string, ElicitResult>>;
  /** The flow's `@OperationId`, when the component has one: a re-run keeps it. */
  readonly operationId?: string;
}

/** One ready invocation: every `@Elicit` question answered, the arguments bound and validated. */
export interface Invocation {
  readonly component: ComponentDefinition;
  /**
   * The context the component sees (a middleware's replacement, if one passed one on); in a
   * carried flow its `requestState` is the method's own, not the framework's.
   */
  readonly ctx: RequestContext;
  /** What the client declared on this request; a middleware's replacement context cannot enlarge it. */
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  /** The arguments and answers it was made from (`ComponentRunner.restore` makes it again). */
  readonly recorded: RecordedInvocation;
  /**
   * Calls the method now, with the bound parameters; what happens when no strategy claims it.
   * `ctx`, when given, is what its `@Ctx()` parameters receive instead (a task's own context).
   */
  run(ctx?: RequestContext): Promise<unknown>;
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
  /**
   * Runs on every round of a claimed component, before middleware and rounds, with the request's
   * own context: throws to refuse the call at once (a tool that only runs as a task, called by a
   * client that cannot receive one).
   */
  admit?(component: ComponentDefinition, ctx: RequestContext): void;
  execute(invocation: Invocation): Promise<ExecutionOutcome>;
}
