// The preferences flows the load balancer suite drives, with the official clients: the 2026
// client (@modelcontextprotocol/client 2.4.0, its own multi round-trip driver) and the 2025-era
// one (@modelcontextprotocol/sdk 1.32.2, real elicitation/create requests on its streams). Each
// flow checks that its result carries the answers the user gave.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export type FlowName = "choose" | "preview" | "reset" | "summary" | "prompt";
export const FLOWS: readonly FlowName[] = ["choose", "preview", "reset", "summary", "prompt"];

const STYLE_OF: Record<string, string> = { red: "coral", green: "mint", blue: "navy" };
const COLOURS = ["red", "green", "blue"];

/** What the client saw of the HTTP exchanges of one connection. */
export interface Observed {
  /** Statuses of the client's answers (POSTs of JSON-RPC responses). */
  readonly answerStatuses: number[];
  /** The instance (host:port) that answered each call's POST, by the JSON-RPC method it carried. */
  readonly upstreams: { method: string; upstream: string }[];
}

function observing(observed: Observed): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? init.body : "";
    if (init?.method === "POST") {
      const method = /"method":"([^"]+)"/.exec(body)?.[1];
      if (method === undefined && body.includes('"result"')) observed.answerStatuses.push(response.status);
      if (method !== undefined) observed.upstreams.push({ method, upstream: response.headers.get("x-upstream-addr") ?? "" });
    }
    return response;
  }) as typeof fetch;
}

/** What the user answers, after `think` (it may await anything: a kill, a delay). */
export type Think = (message: string) => Promise<void>;

function answer(message: string, colour: string): { action: "accept"; content?: Record<string, string> } {
  if (message === "Which colour do you prefer?") return { action: "accept", content: { color: colour } };
  if (message.startsWith("Which ") && message.endsWith(" style?")) return { action: "accept", content: { style: STYLE_OF[colour]! } };
  // The URL consent.
  return { action: "accept" };
}

/** Whether a flow's result carries what the user answered. */
function carries(flow: FlowName, result: unknown, colour: string): boolean {
  const text = JSON.stringify(result);
  if (flow === "choose") return text.includes(`"color":"${colour}"`) && text.includes(`"style":"${STYLE_OF[colour]}"`);
  if (flow === "preview") return text.includes('"consent":"accept"');
  if (flow === "reset") return text.includes('"reset":true');
  return text.includes(colour) && text.includes(STYLE_OF[colour]!);
}

export interface FlowRun {
  readonly flow: FlowName;
  readonly era: "2026" | "2025";
  readonly observed: Observed;
  /** Settles with true when the result carries the answers, false when it does not; rejects when the call failed. */
  readonly done: Promise<boolean>;
  close(): Promise<void>;
}

/** One flow on a fresh connection of the 2025-era client. */
export async function legacyFlow(url: string, flow: FlowName, n: number, think: Think = async () => undefined): Promise<FlowRun> {
  const colour = COLOURS[n % COLOURS.length]!;
  const observed: Observed = { answerStatuses: [], upstreams: [] };
  const client = new LegacyClient({ name: "vscode-like", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    await think(request.params.message);
    return answer(request.params.message, colour);
  });
  await client.connect(new LegacyTransport(new URL(url), { fetch: observing(observed) }));
  const options = { timeout: 120_000 };
  const call = async (): Promise<unknown> => {
    if (flow === "choose") return client.callTool({ name: "choose_preferences", arguments: {} }, undefined, options);
    if (flow === "preview") return client.callTool({ name: "preview_theme", arguments: {} }, undefined, options);
    if (flow === "reset") return client.callTool({ name: "reset_preferences", arguments: {} }, undefined, options);
    if (flow === "summary") return client.readResource({ uri: `preferences://p${n}/summary` }, options);
    return client.getPrompt({ name: "preferences_prompt", arguments: {} }, options);
  };
  return { flow, era: "2025", observed, done: call().then((result) => carries(flow, result, colour)), close: () => client.close() };
}

/** One flow with the 2026 client (every round a request of its own, to whichever instance). */
export async function modernFlow(url: string, flow: FlowName, n: number): Promise<FlowRun> {
  const colour = COLOURS[n % COLOURS.length]!;
  const observed: Observed = { answerStatuses: [], upstreams: [] };
  const client = new ModernClient({ name: "modern", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } } });
  client.setRequestHandler("elicitation/create", async (request) => answer((request.params as { message: string }).message, colour));
  await client.connect(new ModernTransport(new URL(url), { fetch: observing(observed) }));
  const call = async (): Promise<unknown> => {
    if (flow === "choose") return client.callTool({ name: "choose_preferences", arguments: {} });
    if (flow === "preview") return client.callTool({ name: "preview_theme", arguments: {} });
    if (flow === "reset") return client.callTool({ name: "reset_preferences", arguments: {} });
    if (flow === "summary") return client.readResource({ uri: `preferences://p${n}/summary` });
    return client.getPrompt({ name: "preferences_prompt", arguments: {} });
  };
  return { flow, era: "2026", observed, done: call().then((result) => carries(flow, result, colour)), close: () => client.close() };
}
