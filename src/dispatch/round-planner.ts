import { randomFillSync } from "node:crypto";
import { Elicitation } from "../elicitation/elicitation";
import { questionDigest } from "../elicitation/question-digest";
import type { StateSealer } from "../state/state-sealer";
import type { ElicitSpec } from "../features/component-definition";
import type { ElicitResult } from "../protocol/elicit-request";
import { firstViolations, validateDto, type DtoValidation } from "../schema/dto-validator";
import { buildQuestion } from "../features/question-builder";
import { ErrorCode, McpError } from "../protocol/errors";
import type { RequestContext } from "../protocol/request-context";
import type { JsonObject } from "../protocol/wire-types";
import type { InputRequest } from "../protocol/input-request";
import { drive, type MaybePromise } from "../protocol/maybe-async";
import { requireCapabilities } from "./admission";

/** What travels in sealed requestState between rounds of a carried flow. */
interface CarriedState {
  /** Round counter, so the state changes every round even when no answer did. */
  r: number;
  /** `@Elicit` answers, pinned to their question's digest. */
  a: Record<string, { d: string; o: ElicitResult }>;
  /** The flow's operation id: random on its first round, then carried. */
  o: string;
  /** The requestState the method itself returned last, handed back to it when it is next called. */
  m?: string;
}

export type RoundPlan =
  | { kind: "ready"; values: ReadonlyMap<string, unknown>; state: CarriedState }
  | { kind: "ask"; inputRequests: Record<string, InputRequest>; requestState: string; round: number }
  | { kind: "ended"; key: string; action: "decline" | "cancel"; round: number };

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
  async plan(specs: readonly ElicitSpec[], ctx: RequestContext, declared: RequestContext = ctx): Promise<RoundPlan> {
    return this.planNow(specs, ctx, declared);
  }

  /**
   * `plan`, synchronous when every answer is validated synchronously (no DTO needs
   * class-validator): the dispatcher's round then makes no promise for it. A refusal may be thrown
   * at once.
   */
  planNow(specs: readonly ElicitSpec[], ctx: RequestContext, declared: RequestContext = ctx): MaybePromise<RoundPlan> {
    return drive(this.resolve(specs, ctx, this.openState(ctx), ctx.inputResponses ?? {}, declared));
  }

  /** Plans a re-ask after the method returned `Result.reask(...)`: those answers and their dependents are dropped. */
  async reask(
    specs: readonly ElicitSpec[],
    ctx: RequestContext,
    keys: readonly string[],
    resolvedState: CarriedState,
    declared: RequestContext = ctx,
  ): Promise<RoundPlan> {
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
    const kept: CarriedState = { r: resolvedState.r, a: {}, o: resolvedState.o };
    for (const [k, v] of Object.entries(resolvedState.a)) if (!dropped.has(k)) kept.a[k] = v;
    return drive(this.resolve(specs, ctx, kept, {}, declared, keys));
  }

  /**
   * Seals a ready flow's state for a round the method itself ended with `input_required`: its
   * answers and operation id, with the method's own requestState (if any) to hand back next round.
   */
  carry(state: CarriedState, ctx: RequestContext, methodState: string | undefined): string {
    const carried: CarriedState = { r: state.r, a: state.a, o: state.o, ...(methodState !== undefined && { m: methodState }) };
    return this.sealer.seal(carried as unknown as JsonObject, ctx, { principal: ctx.principal });
  }

  private openState(ctx: RequestContext): CarriedState {
    if (ctx.requestState === undefined) return { r: 0, a: {}, o: newOperationId() };
    const data = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as unknown as CarriedState;
    if (
      !data ||
      typeof data !== "object" ||
      typeof data.r !== "number" ||
      typeof data.a !== "object" ||
      data.a === null ||
      typeof data.o !== "string" ||
      (data.m !== undefined && typeof data.m !== "string")
    ) {
      // Signed by us but not ours (another component's state): the same generic refusal.
      throw new McpError(ErrorCode.InvalidParams, "Invalid or expired request state");
    }
    return data;
  }

  /** The round's plan, as steps for `drive`: each answer's validation is yielded, not awaited. */
  private *resolve(
    specs: readonly ElicitSpec[],
    ctx: RequestContext,
    carried: CarriedState,
    responses: Readonly<Record<string, unknown>>,
    declared: RequestContext,
    reasked?: readonly string[],
  ): Generator<unknown, RoundPlan, unknown> {
    const answers: Record<string, unknown> = {};
    const values = new Map<string, unknown>();
    const next: CarriedState = { r: carried.r + 1, a: {}, o: carried.o, ...(carried.m !== undefined && { m: carried.m }) };
    const ask: Record<string, InputRequest> = {};
    const resolved = new Set<string>();
    // Every question this round reaches: its capability is needed whether it is asked or answered.
    const reached: InputRequest[] = [];
    const admit = () => requireCapabilities(reached, declared.clientCapabilities, declared.protocolVersion === undefined);
    for (const spec of specs) {
      if (!spec.after.every((d) => resolved.has(d))) continue;
      // A static question was built and digested at bootstrap; a computed one is built every round.
      const question = spec.built ?? buildQuestion(spec, answers, ctx);
      reached.push(question.request);
      const digest = spec.digest ?? questionDigest(spec.key, question.request);
      let outcome: ElicitResult | undefined;
      const pinned = carried.a[spec.key];
      if (pinned && pinned.d === digest) outcome = pinned.o;
      else if (!reasked?.includes(spec.key) && Object.prototype.hasOwnProperty.call(responses, spec.key)) {
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
        ask[spec.key] = question.request;
        continue;
      }
      let accepted: unknown = outcome.action === "accept" ? (outcome.content ?? { action: "accept" }) : undefined;
      if (outcome.action === "accept" && question.dto) {
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
      next.a[spec.key] = { d: digest, o: outcome };
      resolved.add(spec.key);
      const policy = spec.options.onDecline ?? "end";
      if (outcome.action !== "accept" && policy === "end") {
        admit();
        return { kind: "ended", key: spec.key, action: outcome.action, round: next.r };
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
      const requestState = this.sealer.seal(next as unknown as JsonObject, ctx, { principal: ctx.principal });
      return { kind: "ask", inputRequests: ask, requestState, round: next.r };
    }
    return { kind: "ready", values, state: next };
  }
}

export type { CarriedState };
