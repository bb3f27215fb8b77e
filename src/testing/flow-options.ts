import type { AskedInput } from "./asked-input";
import type { Round } from "./channel";
import type { LogLevel } from "../protocol/request-context";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { InputResponse } from "./wire-messages";

/**
 * Per-request choices. On a call they apply to every round of the flow; on `answer`/`retry` they
 * apply to that round only, over the call's.
 */
export interface CallOptions {
  /** The client capabilities this request declares (default: the client's). */
  capabilities?: ClientCapabilities;
  /** Asks for `notifications/message` at this level and above (deprecated MCP logging). */
  logLevel?: LogLevel;
  /** Opts the request into `notifications/progress`. */
  progressToken?: string | number;
  /** Extra `_meta` entries, merged last (they may override the reserved keys). */
  meta?: JsonObject;
  /** Extra HTTP headers (HTTP boundary only); a header set to undefined is not sent. */
  headers?: Record<string, string | undefined>;
  /** How long to wait for the response (default: the client's). */
  timeoutMs?: number;
}

/**
 * Where a flow stands after its latest round: a final result, a request for input, a JSON-RPC
 * error, or a result whose `resultType` the kit does not know ("other": an extension's).
 */
export type FlowStatus = "complete" | "input_required" | "error" | "other";

/** An answer under one key: a response, or a function of what was asked. */
export type Answer = InputResponse | ((asked: AskedInput) => InputResponse | Promise<InputResponse>);

/** Answers by input-request key. */
export type Answers = Readonly<Record<string, Answer>>;

/**
 * What automatic mode answers with: a map by key (a key the script lacks fails the run), or one
 * function for every question (returning undefined fails the run).
 */
export type Script = Answers | ((asked: AskedInput) => InputResponse | undefined | Promise<InputResponse | undefined>);

export interface RunOptions extends CallOptions {
  /** Fail when the flow would need more requests than this, counting those already made (default 10). */
  maxRounds?: number;
}

/** What a flow sends its rounds through: a `TestClient`. */
export interface RoundSender {
  meta(options?: CallOptions): JsonObject;
  exchange(method: string, params: JsonObject, options?: CallOptions): Promise<Round>;
  as(principal: string | null): RoundSender;
}

/** Round options over call options; `meta` and `headers` merge key by key. */
export function mergeOptions(base: CallOptions, over: CallOptions): CallOptions {
  return {
    ...base,
    ...over,
    ...((base.meta || over.meta) && { meta: { ...base.meta, ...over.meta } }),
    ...((base.headers || over.headers) && { headers: { ...base.headers, ...over.headers } }),
  };
}
