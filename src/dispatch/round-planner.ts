import { randomFillSync } from "node:crypto";
import { Elicitation } from "../elicitation/elicitation";
import { elicitationIdOf, withElicitationId } from "../elicitation/elicitation-id";
import { questionDigest } from "../elicitation/question-digest";
import { INVALID_STATE_MESSAGE } from "../state/state-options";
import type { StateSealer } from "../state/state-sealer";
import type { ElicitSpec } from "../features/component-definition";
import type { ElicitResult } from "../protocol/elicit-request";
import { firstViolations, instantiateAccepted, validateDto, type DtoValidation } from "../schema/dto-validator";
import { buildQuestion } from "../features/question-builder";
import { ErrorCode, McpError } from "../protocol/errors";
import type { RequestContext } from "../protocol/request-context";
import type { InputRequest } from "../protocol/input-request";
import { drive, type MaybePromise } from "../protocol/maybe-async";
import { requireCapabilities, type Declared } from "./admission";
import { decodeCarriedState, encodeCarriedState, type CarriedAnswer, type CarriedState } from "./carried-state";
import { withRequestState } from "./request-context-of";

/**
 * One round of a component once planned, the one shape the planner, the flow and the dispatcher
 * share: ready (the method is called with `values`, seeing `ctx`), ask (the questions still
 * missing, with the sealed state of the next round), or ended (a question declined or cancelled
 * under `onDecline: "end"`).
 */
export type PlannedRound =
  | {
      readonly kind: "ready";
      /** `@Elicit` values by key. */
      readonly values: ReadonlyMap<string, unknown>;
      /** The context the method sees: `requestState` is its own (or undefined), never the framework's. */
      readonly ctx: RequestContext;
      /** The flow's state (carried flows only): its answers, its operation id. */
      readonly state?: CarriedState;
    }
  | {
      readonly kind: "ask";
      readonly inputRequests: Record<string, InputRequest>;
      readonly requestState: string;
      /** The round the plan asks on, for telemetry. */
      readonly round: number;
    }
  | {
      readonly kind: "ended";
      readonly key: string;
      readonly action: "decline" | "cancel";
      /** The round the plan ended on, for telemetry. */
      readonly round: number;
    };

/** A planned round the method is called in. */
export type ReadyRound = Extract<PlannedRound, { kind: "ready" }>;

const INVALID_ANSWER = "Invalid elicitation response";

/** Operation ids drawn from one buffer of random bytes, refilled every 64 ids (one CSPRNG call, not one per flow). */
const ID_BYTES = 16;
const IDS_PER_FILL = 64;
const idPool = Buffer.alloc(ID_BYTES * IDS_PER_FILL);
let idsLeft = 0;

/** A new flow's operation id: 128 random bits, base64url. */
function newOperationId(): string {
  if (idsLeft === 0) {
    randomFillSync(idPool);
    idsLeft = IDS_PER_FILL;
  }
  const start = (IDS_PER_FILL - idsLeft--) * ID_BYTES;
  return idPool.toString("base64url", start, start + ID_BYTES);
}

/**
 * Resolves a component's `@Elicit` parameters for one round: carried answers (sealed state) first,
 * then this round's `inputResponses`; whatever is still missing is asked, all in one round.
 * Nothing is kept on the server: the next round is a fresh request carrying the new state.
 */
export class RoundPlanner {
  constructor(private readonly sealer: StateSealer) {}

  /**
   * `declared` is the request as the client sent it (never a middleware's replacement): every
   * question this round reaches, asked or answered (up front, or carried), must be allowed by the
   * capabilities it declared, else -32021.
   */
  async plan(specs: readonly ElicitSpec[], ctx: RequestContext, declared: Declared = ctx): Promise<PlannedRound> {
    return this.planNow(specs, ctx, declared);
  }

  /**
   * `plan`, synchronous when every answer is validated synchronously (no DTO needs
   * class-validator): the dispatcher's round then makes no promise for it. A refusal may be thrown
   * at once.
   */
  planNow(specs: readonly ElicitSpec[], ctx: RequestContext, declared: Declared = ctx): MaybePromise<PlannedRound> {
    return drive(this.resolve(specs, ctx, this.openState(ctx), ctx.inputResponses ?? {}, declared));
  }

  /** Plans a re-ask after the method returned `Result.reask(...)`: those answers and their dependents are dropped. */
  async reask(
    specs: readonly ElicitSpec[],
    ctx: RequestContext,
    keys: readonly string[],
    resolvedState: CarriedState,
    declared: Declared = ctx,
  ): Promise<PlannedRound> {
    for (const key of keys) {
      if (!specs.some((s) => s.key === key)) throw new McpError(ErrorCode.InternalError, "Internal error", undefined);
    }
    const dropped = new Set(keys);
    let grew = true;
    while (grew) {
      grew = false;
      for (const s of specs)
        if (!dropped.has(s.key) && s.after.some((d) => dropped.has(d))) {
          dropped.add(s.key);
          grew = true;
        }
    }
    // The method answered with a re-ask, not with state of its own: none is kept.
    const answers: Record<string, CarriedAnswer> = {};
    for (const [k, v] of Object.entries(resolvedState.answers)) if (!dropped.has(k)) answers[k] = v;
    const kept: CarriedState = { round: resolvedState.round, answers, operationId: resolvedState.operationId };
    return drive(this.resolve(specs, ctx, kept, {}, declared, keys));
  }

  /**
   * Seals a ready flow's state for a round the method itself ended with `input_required`: its
   * answers and operation id, with the method's own requestState (if any) to hand back next round.
   */
  carry(state: CarriedState, ctx: RequestContext, methodState: string | undefined): string {
    const carried: CarriedState = {
      round: state.round,
      answers: state.answers,
      operationId: state.operationId,
      ...(methodState !== undefined && { methodState }),
    };
    return this.sealer.sealKnownJson(encodeCarriedState(carried), ctx, { principal: ctx.principal });
  }

  private openState(ctx: RequestContext): CarriedState {
    if (ctx.requestState === undefined) return { round: 0, answers: {}, operationId: newOperationId() };
    const state = decodeCarriedState(this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }));
    // Signed by us but not ours (another component's state): the same generic refusal.
    if (state === undefined) throw new McpError(ErrorCode.InvalidParams, INVALID_STATE_MESSAGE);
    return state;
  }

  /** The round's plan, as steps for `drive`: each answer's validation is yielded, not awaited. */
  private *resolve(
    specs: readonly ElicitSpec[],
    ctx: RequestContext,
    carried: CarriedState,
    responses: Readonly<Record<string, unknown>>,
    declared: Declared,
    reasked?: readonly string[],
  ): Generator<unknown, PlannedRound, unknown> {
    const answers: Record<string, unknown> = {};
    const values = new Map<string, unknown>();
    const pinnedNow: Record<string, CarriedAnswer> = {};
    const next: CarriedState = {
      round: carried.round + 1,
      answers: pinnedNow,
      operationId: carried.operationId,
      ...(carried.methodState !== undefined && { methodState: carried.methodState }),
    };
    const ask: Record<string, InputRequest> = {};
    const resolved = new Set<string>();
    // Every question this round reaches: its capability is needed whether it is asked or answered.
    const reached: InputRequest[] = [];
    const admit = () => requireCapabilities(reached, declared);
    for (const spec of specs) {
      if (!spec.after.every((d) => resolved.has(d))) continue;
      // A static question was built and digested at bootstrap; a computed one is built every round.
      const question = spec.built ?? buildQuestion(spec, answers, ctx);
      reached.push(question.request);
      const digest = spec.digest ?? questionDigest(spec.key, question.request);
      let outcome: ElicitResult | undefined;
      let carriedOver = false;
      const pinned = carried.answers[spec.key];
      if (pinned && pinned.digest === digest) {
        outcome = pinned.outcome;
        carriedOver = true;
      } else if (!reasked?.includes(spec.key) && Object.prototype.hasOwnProperty.call(responses, spec.key)) {
        // An answer the client could not have been asked for is refused before it is read.
        admit();
        const answer = Elicitation.response({ inputResponses: responses }, spec.key, question.request as never);
        if (answer.status === "missing") continue;
        outcome =
          answer.action === "accept"
            ? { action: "accept", ...(answer.content !== undefined && { content: answer.content }) }
            : { action: answer.action };
      }
      if (!outcome) {
        // A URL question carries an id stable for this flow (its operation id) and key, on every round and instance.
        ask[spec.key] =
          question.mode === "url" ? withElicitationId(question.request, elicitationIdOf(carried.operationId, spec.key)) : question.request;
        continue;
      }
      let accepted: unknown = outcome.action === "accept" ? (outcome.content ?? { action: "accept" }) : undefined;
      if (outcome.action === "accept" && question.dto && carriedOver) {
        // Validated when it was answered, then sealed: a carried answer comes only from a token
        // whose MAC, under this server's key and bound to this request and principal, the sealer
        // has just checked (or from this request's own ready round), so it is the server's own
        // output, unchanged. Its digest pins the question's schema; a rule the schema does not
        // show (a custom validator) changed by a deployment applies to answers given after it.
        accepted = instantiateAccepted(question.dto, outcome.content ?? {});
      } else if (outcome.action === "accept" && question.dto) {
        const checked = (yield validateDto(question.dto, outcome.content ?? {})) as DtoValidation<object>;
        if (!checked.ok) {
          throw new McpError(ErrorCode.InvalidParams, INVALID_ANSWER, {
            key: spec.key,
            reason: firstViolations(checked.violations)
              .map((v) => `${v.field}: ${v.constraint}`)
              .join("; "),
          });
        }
        accepted = checked.value;
      }
      if (question.mode === "url" && outcome.action === "accept") accepted = { action: "accept" };
      pinnedNow[spec.key] = { digest, outcome };
      resolved.add(spec.key);
      const policy = spec.options.onDecline ?? "end";
      if (outcome.action !== "accept" && policy === "end") {
        admit();
        return { kind: "ended", key: spec.key, action: outcome.action, round: next.round };
      }
      const value =
        policy === "outcome"
          ? outcome.action === "accept"
            ? { action: "accept", ...(question.mode === "form" && { content: accepted }) }
            : outcome
          : accepted;
      values.set(spec.key, value);
      answers[spec.key] = value;
    }
    admit();
    if (Object.keys(ask).length > 0) {
      const requestState = this.sealer.sealKnownJson(encodeCarriedState(next), ctx, { principal: ctx.principal });
      return { kind: "ask", inputRequests: ask, requestState, round: next.round };
    }
    return { kind: "ready", values, ctx: withRequestState(ctx, next.methodState), state: next };
  }
}
