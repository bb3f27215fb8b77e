import { randomUUID } from "node:crypto";
import type { JsonValue } from "../../../protocol/canonical-json";
import { isPlainObject } from "../../../protocol/plain-object";
import type { JsonObject } from "../../../protocol/wire-types";
import { legacyElicitParams } from "../../request/legacy-shape";

/** The input requests a round may send a 2025 client. */
const KINDS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/** One question of a round: its `@Elicit` (or the method's own) key, and the request sent for it. */
export interface RoundQuestion {
  readonly key: string;
  readonly wireId: string;
  /** The JSON-RPC request sent to the client, its id the wire id. */
  readonly request: JsonObject;
}

/**
 * One round a 2025 call waits in, as recorded in the shared state: what an instance taking the
 * call over needs to wait for the same answers and run the next round (the sealed state the
 * dispatcher handed out with the questions), and when they were asked (the answer timeout runs
 * from then, whichever instance waits).
 */
export interface Round {
  /** 1 for the call's first round. */
  readonly n: number;
  readonly requestState?: string;
  readonly questions: readonly RoundQuestion[];
  /** Milliseconds since the epoch, on the asking instance's clock. */
  readonly askedAt: number;
}

/**
 * The round for the input requests a dispatch answered, in the shape of `version`, the revision the
 * session negotiated (`legacyElicitParams`: no `mode` or `elicitationId` before 2025-11-25). A URL
 * question carries the stable `elicitationId` the dispatcher gave it; one without gets a random id,
 * as 2025-11-25 requires one (the SDK's shim does the same).
 */
export function newRound(
  n: number,
  asks: JsonObject,
  requestState: string | undefined,
  wireId: (index: number) => string,
  version: string | undefined,
): Round {
  const questions = Object.entries(asks).map(([key, ask], index): RoundQuestion => {
    if (!isPlainObject(ask) || typeof ask.method !== "string" || !KINDS.has(ask.method))
      throw new Error(`the input request '${key}' is not an elicitation/create, sampling/createMessage or roots/list request`);
    let params = isPlainObject(ask.params) ? (ask.params as JsonObject) : undefined;
    if (params?.mode === "url" && params.elicitationId === undefined) params = { ...params, elicitationId: randomUUID() };
    if (params !== undefined && ask.method === "elicitation/create") params = legacyElicitParams(params, version);
    const request: JsonObject = { jsonrpc: "2.0", id: wireId(index), method: ask.method, ...(params !== undefined && { params }) };
    return { key, wireId: request.id as string, request };
  });
  return { n, ...(requestState !== undefined && { requestState }), questions, askedAt: Date.now() };
}

/** A round as the shared state holds it (written by `newRound` on this or another instance). */
export function decodeRound(value: JsonValue): Round {
  if (!isPlainObject(value) || typeof value.n !== "number" || !Array.isArray(value.questions) || typeof value.askedAt !== "number")
    throw new Error("the shared state holds a round this version cannot read");
  return value as unknown as Round;
}
