import type { ElicitResult } from "../protocol/elicit-request";
import type { JsonObject } from "../protocol/wire-types";

/** One `@Elicit` answer carried between rounds, pinned to the digest of the question it answers. */
export interface CarriedAnswer {
  readonly digest: string;
  readonly outcome: ElicitResult;
}

/** What travels in sealed requestState between rounds of a carried flow. */
export interface CarriedState {
  /** Round counter, so the state changes every round even when no answer did. */
  readonly round: number;
  /** `@Elicit` answers by key, in the order they were resolved. */
  readonly answers: Readonly<Record<string, CarriedAnswer>>;
  /** The flow's operation id: random on its first round, then carried. */
  readonly operationId: string;
  /** The requestState the method itself returned last, handed back to it when it is next called. */
  readonly methodState?: string;
}

/**
 * The one place that knows how a `CarriedState` is written inside a token: `{r, a: {key: {d, o}},
 * o, m}`, the letters (and their order) of every release so far, so that tokens sealed by a
 * running older instance still open during a rolling upgrade and the token bytes stay as they were.
 */
export function encodeCarriedState(state: CarriedState): JsonObject {
  const a: Record<string, { d: string; o: ElicitResult }> = {};
  for (const key of Object.keys(state.answers)) {
    const answer = state.answers[key]!;
    a[key] = { d: answer.digest, o: answer.outcome };
  }
  const written: JsonObject = { r: state.round, a, o: state.operationId };
  if (state.methodState !== undefined) written.m = state.methodState;
  return written;
}

/**
 * The `CarriedState` a token held, or undefined when what it held is not one (signed by us, but
 * another component's state). An answer that is not `{d: string, o: object}` pins nothing and is
 * left out: its question is asked again.
 */
export function decodeCarriedState(data: unknown): CarriedState | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { r, a, o, m } = data as { r?: unknown; a?: unknown; o?: unknown; m?: unknown };
  if (typeof r !== "number" || typeof a !== "object" || a === null || typeof o !== "string") return undefined;
  if (m !== undefined && typeof m !== "string") return undefined;
  const answers: Record<string, CarriedAnswer> = {};
  for (const key of Object.keys(a)) {
    const pinned = (a as Record<string, unknown>)[key];
    if (typeof pinned !== "object" || pinned === null) continue;
    const { d, o: outcome } = pinned as { d?: unknown; o?: unknown };
    if (typeof d === "string" && typeof outcome === "object" && outcome !== null)
      answers[key] = { digest: d, outcome: outcome as ElicitResult };
  }
  return { round: r, answers, operationId: o, ...(m !== undefined && { methodState: m }) };
}
