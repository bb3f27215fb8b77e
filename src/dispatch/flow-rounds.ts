import type { ComponentDefinition } from "../features/component-definition";
import { isReask, Result } from "../features/result";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import type { MaybePromise } from "../protocol/maybe-async";
import { isPlainObject } from "../protocol/plain-object";
import type { RequestContext } from "../protocol/request-context";
import type { StateSealer } from "../state/state-sealer";
import { isInputRequired, type Declared } from "./admission";
import { RoundPlanner, type PlannedRound, type ReadyRound } from "./round-planner";

/** The `@Elicit` values of a component without any. */
export const NO_VALUES: ReadonlyMap<string, unknown> = new Map();

/**
 * The rounds of a carried flow (a component with `@Elicit` or `@OperationId` parameters): before
 * the method, resolve its questions from sealed state and this round's answers; after it, carry
 * the flow through whatever the method returned. A method that asks for input itself
 * (`Result.inputRequired` for sampling, roots or another elicitation) keeps its elicited answers
 * and operation id: they are sealed together with what it asked and with its own requestState,
 * which it gets back unchanged as `ctx.requestState` on the next round.
 */
export class FlowRounds {
  private readonly planner: RoundPlanner;

  constructor(
    sealer: StateSealer,
    private readonly logger: AppLogger,
  ) {
    this.planner = new RoundPlanner(sealer);
  }

  /**
   * `declared` is the request as the client sent it (middleware cannot widen its capabilities):
   * every question the round reaches is admitted against it. Synchronous when the plan is (see
   * `RoundPlanner.planNow`); a refusal may be thrown at once.
   */
  enter(def: ComponentDefinition, ctx: RequestContext, declared: Declared = ctx): MaybePromise<PlannedRound> {
    if (!def.carriedFlow) return { kind: "ready", values: NO_VALUES, ctx };
    return this.planner.planNow(def.elicits, ctx, declared);
  }

  /** What a round that ends before the method runs answers: its questions, or the declined question's outcome. */
  unready(def: ComponentDefinition, round: Exclude<PlannedRound, ReadyRound>): unknown {
    if (round.kind === "ask") return Result.inputRequired({ inputRequests: round.inputRequests, requestState: round.requestState });
    return def.declined(round.key, round.action);
  }

  /** What the round answers, given what the method returned. Synchronous except for a re-ask; a refusal may be thrown at once. */
  leave(
    def: ComponentDefinition,
    ctx: RequestContext,
    round: ReadyRound,
    returned: unknown,
    declared: Declared = ctx,
  ): MaybePromise<unknown> {
    if (isReask(returned)) return this.reask(def, ctx, round, returned.reask, declared);
    if (!round.state || !isInputRequired(returned)) return returned;
    const { inputRequests, requestState } = returned;
    if (requestState !== undefined && typeof requestState !== "string")
      throw this.violation(def, "returned input_required with a requestState that is not a string");
    const asked = isPlainObject(inputRequests) ? Object.keys(inputRequests) : [];
    if (asked.length === 0 && requestState === undefined)
      throw this.violation(def, "returned input_required with neither inputRequests nor requestState");
    const clash = asked.find((key) => def.elicits.some((s) => s.key === key));
    if (clash !== undefined) {
      throw this.violation(def, `its input request key "${clash}" is also the key of @Elicit("${clash}"); give one of them another key`);
    }
    return { ...returned, requestState: this.planner.carry(round.state, ctx, requestState) };
  }

  /** The round after a method returned `Result.reask(keys)`: those questions (and their dependents) asked again. */
  private async reask(
    def: ComponentDefinition,
    ctx: RequestContext,
    round: ReadyRound,
    keys: readonly string[],
    declared: Declared,
  ): Promise<unknown> {
    if (def.elicits.length === 0) throw this.violation(def, "returned Result.reask() but has no @Elicit parameters");
    const unknown = keys.filter((key) => !def.elicits.some((s) => s.key === key));
    if (unknown.length > 0)
      throw this.violation(
        def,
        `Result.reask() names ${unknown.map((k) => `"${k}"`).join(", ")}, which is not an @Elicit key of this method`,
      );
    const plan = await this.planner.reask(def.elicits, ctx, keys, round.state!, declared);
    if (plan.kind !== "ask") throw this.violation(def, "Result.reask() left nothing to ask");
    return Result.inputRequired({ inputRequests: plan.inputRequests, requestState: plan.requestState });
  }

  /** A component broke the framework's contract: the reason goes to the logger, the client gets a generic -32603. */
  private violation(def: ComponentDefinition, problem: string): McpError {
    this.logger.error("component broke the flow contract", { component: def.where, problem: `${def.where}: ${problem}` });
    return new McpError(ErrorCode.InternalError, "Internal error");
  }
}
