// The exchanges the HTTP benchmark drives, each with two checks of every answer: a cheap one on the
// body text, run on every response under load, and a thorough one on the parsed JSON-RPC message,
// run once before measuring (the pre-flight), which also proves the cheap check accepts the
// answer. The pre-flight records the app's answers for the ceiling server to replay.
//   plain        tools/call `add` {a: 1, b: 2}: a complete result with sum 3
//   elicitation  tools/call `confirm_add`: input_required with the question `confirm` and a
//                requestState; the retry answers it (accept, {answer: "yes"}) with that state: complete
//   state        tools/call `checkpoint_add`: input_required with a requestState and no question;
//                the retry carries the state back: complete
//   list         tools/list: the first page (100 tools), the same bytes every time but the nextCursor
import type { RecordedExchange, RecordedResponse } from "./servers/recorded-exchange";

const PROTOCOL_VERSION = "2026-07-28";

type JsonObject = Record<string, unknown>;

/** A problem with a parsed result, or undefined when it is what the exchange expects. */
type DeepCheck = (result: JsonObject) => string | undefined;

interface Round {
  /** Cheap check of one response body under load. */
  readonly accepts: (body: string) => boolean;
  readonly check: DeepCheck;
}

export interface Exchange {
  readonly label: string;
  readonly method: "tools/call" | "tools/list";
  /** The tool called, sent in the `Mcp-Name` header. */
  readonly tool?: string;
  readonly headers: Record<string, string>;
  /** The first request's body (the only one for a call of one round). */
  readonly body: string;
  /** The first round, for a call of two rounds (its answer is input_required). */
  readonly first?: Round & {
    /** The retry's body, carrying `requestState` (and the answers, for elicitation). */
    readonly retryBody: (requestState: string) => string;
  };
  /** The answer that completes the call. */
  readonly final: Round;
}

function envelope(capabilities: JsonObject): JsonObject {
  return { "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION, "io.modelcontextprotocol/clientCapabilities": capabilities };
}

function headersFor(method: string, tool?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": method,
    ...(tool !== undefined && { "mcp-name": tool }),
  };
}

const request = (id: number, method: string, params: JsonObject) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** A JSON-RPC result, not an error, and not a tool error. */
const isResult = (body: string) => body.includes('"result":') && !body.includes('"error":') && !body.includes('"isError":true');
const REQUEST_STATE = /"requestState":"([^"\\]+)"/;

/** The requestState of a first-round answer, by the cheap check; undefined when there is none. */
export const requestStateOf = (body: string): string | undefined => REQUEST_STATE.exec(body)?.[1];

const isComplete = (result: JsonObject) =>
  result.resultType === "complete" ? undefined : `resultType is ${String(result.resultType)}, expected complete`;

function structured(expected: JsonObject): DeepCheck {
  return (result) => {
    if (result.isError === true) return "tool result has isError: true";
    const content = result.structuredContent as JsonObject | undefined;
    for (const [key, value] of Object.entries(expected))
      if (content?.[key] !== value)
        return `structuredContent.${key} is ${JSON.stringify(content?.[key])}, expected ${JSON.stringify(value)}`;
    return isComplete(result);
  };
}

function inputRequired(question: string | undefined): DeepCheck {
  return (result) => {
    if (result.resultType !== "input_required") return `resultType is ${String(result.resultType)}, expected input_required`;
    if (typeof result.requestState !== "string" || result.requestState === "") return "no requestState";
    const requests = result.inputRequests as Record<string, { method?: unknown }> | undefined;
    if (question === undefined) return requests === undefined ? undefined : "inputRequests present in a state-only round";
    return requests?.[question]?.method === "elicitation/create" ? undefined : `no elicitation/create under inputRequests.${question}`;
  };
}

const ARGS = { a: 1, b: 2 };

/** Cheap check of a completed call of the bench's tools: complete, sum 3, and `also` in the text. */
const completeWith =
  (also = "") =>
  (body: string) =>
    isResult(body) && body.includes('"resultType":"complete"') && body.includes('"sum":3') && body.includes(also);

/** The retry of `tool`: the same params, plus `extra` and the requestState, under a new id. */
function retryOf(tool: string, capabilities: JsonObject, extra: JsonObject): (requestState: string) => string {
  const marker = "\u0000state\u0000";
  const [before, after] = request(2, "tools/call", {
    name: tool,
    arguments: ARGS,
    _meta: envelope(capabilities),
    ...extra,
    requestState: marker,
  }).split(JSON.stringify(marker));
  return (requestState) => before + JSON.stringify(requestState) + after;
}

/** tools/call of `tool` with {a: 1, b: 2}; a first round's retry adds `retryAdds` and the requestState. */
function toolCall(
  label: string,
  tool: string,
  capabilities: JsonObject,
  rounds: { first?: Round & { retryAdds: JsonObject }; final: Round },
): Exchange {
  const first = rounds.first;
  return {
    label,
    method: "tools/call",
    tool,
    headers: headersFor("tools/call", tool),
    body: request(1, "tools/call", { name: tool, arguments: ARGS, _meta: envelope(capabilities) }),
    ...(first && { first: { accepts: first.accepts, check: first.check, retryBody: retryOf(tool, capabilities, first.retryAdds) } }),
    final: rounds.final,
  };
}

export const PLAIN = toolCall("plain tools/call", "add", {}, { final: { accepts: completeWith(), check: structured({ sum: 3 }) } });

export const ELICITATION = toolCall(
  "elicitation round trip",
  "confirm_add",
  { elicitation: {} },
  {
    first: {
      accepts: (body) => isResult(body) && body.includes('"resultType":"input_required"') && body.includes('"inputRequests":{"confirm":{'),
      check: inputRequired("confirm"),
      retryAdds: { inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } } },
    },
    final: { accepts: completeWith('"confirmed":"yes"'), check: structured({ sum: 3, confirmed: "yes" }) },
  },
);

export const SEALED_STATE = toolCall(
  "sealed-state round trip",
  "checkpoint_add",
  {},
  {
    first: {
      accepts: (body) => isResult(body) && body.includes('"resultType":"input_required"') && !body.includes('"inputRequests"'),
      check: inputRequired(undefined),
      retryAdds: {},
    },
    final: { accepts: completeWith('"phase":"checked"'), check: structured({ sum: 3, phase: "checked" }) },
  },
);

/**
 * tools/list of an app with `tools` tools: its first page (the default page size, 100). Once
 * `recorded` holds the answer the pre-flight checked, every answer under load must be those very
 * bytes, but for the `nextCursor` (sealed per request: its issue time moves).
 */
export function listExchange(tools: number, pageSize = 100): Exchange & { recorded?: string } {
  const onPage = Math.min(tools, pageSize);
  const uncursored = (body: string) => body.replace(/"nextCursor":"[^"]*"/, '"nextCursor":""');
  const exchange: Exchange & { recorded?: string } = {
    label: `tools/list of ${tools.toLocaleString("en-US")} tools (first page)`,
    method: "tools/list",
    headers: headersFor("tools/list"),
    body: request(1, "tools/list", { _meta: envelope({}) }),
    final: {
      accepts: (body) =>
        exchange.recorded === undefined ? isResult(body) && body.includes('"tools":[') : uncursored(body) === uncursored(exchange.recorded),
      check: (result) => {
        const listed = result.tools as Array<{ name?: unknown }> | undefined;
        if (!Array.isArray(listed)) return "no tools array";
        if (listed.length !== onPage) return `${listed.length} tools listed, expected ${onPage} on the first page`;
        if ((typeof result.nextCursor === "string") !== tools > pageSize)
          return `nextCursor ${String(result.nextCursor)} for ${tools} tools`;
        if (!listed.some((t) => t.name === PLAIN.tool)) return `${PLAIN.tool} is not listed`;
        return isComplete(result);
      },
    },
  };
  return exchange;
}

// ---- pre-flight ----

/** The JSON-RPC message answering `id` in a JSON or an SSE body. */
function messageOf(text: string, contentType: string, id: number): { result?: JsonObject; error?: unknown } | undefined {
  const candidates = contentType.includes("text/event-stream")
    ? text.split(/\r?\n/).flatMap((line) => (line.startsWith("data:") ? [line.slice(5)] : []))
    : [text];
  for (const candidate of candidates) {
    try {
      const parsed = JSON.parse(candidate);
      if (parsed && parsed.id === id) return parsed;
    } catch {
      // not this one
    }
  }
  return undefined;
}

async function send(label: string, url: string, exchange: Exchange, body: string, id: number, round: Round): Promise<RecordedResponse> {
  const response = await fetch(url, { method: "POST", headers: exchange.headers, body });
  const text = await response.text();
  const recorded = { status: response.status, contentType: response.headers.get("content-type") ?? "", body: text };
  const message = messageOf(text, recorded.contentType, id);
  const problem =
    response.status < 200 || response.status > 299
      ? "non-2xx status"
      : !message
        ? `no JSON-RPC response with id ${id}`
        : message.error !== undefined
          ? "JSON-RPC error"
          : !message.result
            ? "no result"
            : (round.check(message.result) ?? (round.accepts(text) ? undefined : "the per-response check would not accept this body"));
  if (problem !== undefined) {
    throw new Error(
      `${label}: pre-flight ${exchange.label} (request id ${id}) failed: ${problem}\n  status ${response.status}, body: ${text.slice(0, 500)}`,
    );
  }
  return recorded;
}

/**
 * Runs the exchange once against `url` with every check, and returns the answers as recorded: the
 * first round's and the completion. Throws, naming the server and the problem, when any is wrong.
 */
export async function preflight(label: string, url: string, exchange: Exchange): Promise<RecordedExchange> {
  const name = exchange.tool ?? exchange.method;
  if (!exchange.first) return { name, final: await send(label, url, exchange, exchange.body, 1, exchange.final) };
  const first = await send(label, url, exchange, exchange.body, 1, exchange.first);
  const requestState = requestStateOf(first.body);
  if (requestState === undefined)
    throw new Error(`${label}: pre-flight ${exchange.label}: the cheap check finds no requestState in ${first.body.slice(0, 300)}`);
  const final = await send(label, url, exchange, exchange.first.retryBody(requestState), 2, exchange.final);
  return { name, first, final };
}
