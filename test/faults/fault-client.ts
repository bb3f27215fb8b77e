// One JSON-RPC request over HTTP with a deadline, as the fault run sees it: an answer (with its
// status, headers and message), a hang (nothing by the deadline), a dropped request (the
// connection closed or reset without an HTTP answer) or a refused connection (nothing listening).
// `judge` turns an outcome into counts on a Tally, by the rules in fault-tally.ts.
import { meta } from "../support/raw-http";
import type { Outages, Tally } from "./fault-tally";

/** A client that declares elicitation and the tasks extension, as the tasks sample needs. */
export const DECLARING = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

/** The fields of a result (a tool call's, a task's) the fault run reads; the rest stays unknown. */
export interface ResultFields {
  readonly [field: string]: unknown;
  readonly resultType?: string;
  readonly taskId?: string;
  readonly status?: string;
  readonly lastUpdatedAt?: string;
  readonly inputRequests?: Record<string, unknown>;
  readonly error?: { code?: number; message?: string; data?: { reason?: string } };
}

export interface JsonRpcAnswer {
  readonly result?: ResultFields;
  readonly error?: { code: number; message: string; data?: unknown };
}

export type Outcome = { readonly sentAt: number; readonly doneAt: number } & (
  | { readonly kind: "answer"; readonly status: number; readonly headers: Headers; readonly message?: JsonRpcAnswer }
  | { readonly kind: "hang" }
  | { readonly kind: "dropped"; readonly reason: string }
  | { readonly kind: "refused" }
);

let nextId = 1;

/** POSTs `method` with `params` (and the declaring `_meta`) to `url`; never throws. */
export async function send(url: string, method: string, params: Record<string, unknown>, deadlineMs: number): Promise<Outcome> {
  const name = method.startsWith("tasks/") ? params.taskId : params.name;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof name === "string" && { "mcp-name": name }),
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta(DECLARING) } });
  const sentAt = Date.now();
  try {
    const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(deadlineMs) });
    const text = await response.text();
    return {
      kind: "answer",
      status: response.status,
      headers: response.headers,
      message: parse(text, response.headers),
      sentAt,
      doneAt: Date.now(),
    };
  } catch (error) {
    const doneAt = Date.now();
    const e = error as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    if (e.name === "TimeoutError" || e.name === "AbortError") return { kind: "hang", sentAt, doneAt };
    if (e.cause?.code === "ECONNREFUSED") return { kind: "refused", sentAt, doneAt };
    return { kind: "dropped", reason: `${e.cause?.code ?? ""} ${e.cause?.message ?? e.message ?? String(error)}`.trim(), sentAt, doneAt };
  }
}

/** The JSON body, or the last message of an SSE stream; undefined when it is neither. */
function parse(text: string, headers: Headers): JsonRpcAnswer | undefined {
  try {
    if (headers.get("content-type")?.includes("text/event-stream")) {
      const data = text.split("\n").filter((line) => line.startsWith("data:"));
      return data.length === 0 ? undefined : JSON.parse(data[data.length - 1]!.slice(5));
    }
    return text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface Judgement {
  /** What the request was, for examples ("tools/call build_report on A"). */
  readonly what: string;
  /** Needs the task store: may fail while an outage lasts. */
  readonly storeBound: boolean;
  readonly outages?: Outages;
  /** A plain call slower than this is a hang. */
  readonly hangAfterMs?: number;
  /** A refused connection is expected (the server is known to be down or closing). */
  readonly refusedOk?: boolean;
}

/**
 * Counts what `outcome` shows on `tally` and returns the JSON-RPC answer when there is one. Errors
 * other than -32603 are the caller's to judge (a "Task not found" for a known task, say).
 */
export function judge(tally: Tally, outcome: Outcome, how: Judgement): JsonRpcAnswer | undefined {
  tally.requests++;
  const excused = how.storeBound && how.outages !== undefined && how.outages.overlaps(outcome.sentAt, outcome.doneAt);
  switch (outcome.kind) {
    case "hang":
      tally.count("hangs", `${how.what}: no answer within ${outcome.doneAt - outcome.sentAt} ms`);
      return undefined;
    case "dropped":
      tally.count("dropped", `${how.what}: ${outcome.reason}`);
      return undefined;
    case "refused":
      if (!how.refusedOk) tally.count("dropped", `${how.what}: connection refused`);
      return undefined;
    case "answer": {
      const took = outcome.doneAt - outcome.sentAt;
      if (how.hangAfterMs !== undefined && took > how.hangAfterMs)
        tally.count("hangs", `${how.what}: answered after ${took} ms (bound ${how.hangAfterMs} ms)`);
      const error = outcome.message?.error;
      if (error?.code === -32603) {
        if (excused) tally.excuse(`-32603 to ${how.what.split(" on ")[0]}`);
        else tally.count("internalErrors", `${how.what}: ${JSON.stringify(error)}`);
      } else if (error !== undefined && excused) {
        tally.excuse(`error ${error.code} to ${how.what.split(" on ")[0]}`);
      }
      return outcome.message;
    }
  }
}
