// Drives one scripted workflow round by round with the official client in manual MRTR mode:
// each round is a fresh request; the demo reads what was asked, answers from the script, and
// retries with `inputResponses` and the exact `requestState`. Every round is checked against the
// script; the first deviation ends the run with a message naming the round.
import { isDeepStrictEqual } from "node:util";
import type { Client } from "@modelcontextprotocol/client";
import type { RawResult, WireRecorder } from "./wire-recorder";
import type { Answer, ExpectedQuestion, Operation, ScriptedRun, Workflow } from "./workflows";

/** One question as the server asked it. */
export interface AskedQuestion {
  key: string;
  mode: string;
  message: string;
  choices?: string[];
  url?: string;
}

/** One request and what came back. */
export interface RoundRecord {
  round: number;
  /** Keys of the inputResponses sent with this request, and whether a requestState went with them. */
  sentAnswers: string[];
  sentState: boolean;
  outcome: "input_required" | "complete" | "error";
  asked: AskedQuestion[];
  /** input_required with requestState and no inputRequests. */
  stateOnly: boolean;
  answers?: Record<string, Answer>;
  /** The final result (complete) or error, `_meta` left out. */
  result?: unknown;
}

export interface RunRecord {
  label?: string;
  rounds: RoundRecord[];
  failure?: string;
}

export interface WorkflowRecord {
  workflow: Workflow;
  runs: RunRecord[];
  requests: number;
  ms: number;
  /** "round 2 (decline): ..." for the first deviation, if any. */
  failure?: string;
}

class Deviation extends Error {}

type ManualOptions = { allowInputRequired: true };

async function send(client: Client, operation: Operation, retry: Record<string, unknown>): Promise<Record<string, unknown>> {
  const options: ManualOptions = { allowInputRequired: true };
  // The retry fields ride in the request params next to the original ones (MRTR).
  switch (operation.method) {
    case "tools/call":
      return (await client.callTool({ ...operation.params, ...retry } as never, options)) as Record<string, unknown>;
    case "resources/read":
      return (await client.readResource({ ...operation.params, ...retry } as never, options)) as Record<string, unknown>;
    case "prompts/get":
      return (await client.getPrompt({ ...operation.params, ...retry } as never, options)) as Record<string, unknown>;
  }
}

function withoutMeta(value: Record<string, unknown>): Record<string, unknown> {
  const { _meta, ...rest } = value;
  return rest;
}

function choicesOf(schema: unknown): string[] | undefined {
  const properties = (schema as { properties?: Record<string, { enum?: unknown; oneOf?: { const: string }[] }> } | undefined)?.properties;
  if (!properties) return undefined;
  const [property] = Object.values(properties);
  if (Array.isArray(property?.enum)) return property.enum.map(String);
  if (Array.isArray(property?.oneOf)) return property.oneOf.map((o) => o.const);
  return undefined;
}

function readQuestions(raw: RawResult): AskedQuestion[] {
  const requests = (raw.inputRequests ?? {}) as Record<string, { method?: string; params?: Record<string, unknown> }>;
  return Object.entries(requests).map(([key, request]) => {
    const params = request.params ?? {};
    const mode = request.method === "elicitation/create" ? String(params.mode ?? "form") : String(request.method);
    return {
      key,
      mode,
      message: String(params.message ?? ""),
      ...(mode === "form" && { choices: choicesOf(params.requestedSchema) }),
      ...(mode === "url" && { url: String(params.url) }),
    };
  });
}

const show = (value: unknown): string => JSON.stringify(value);

function compareQuestions(expected: readonly ExpectedQuestion[], asked: readonly AskedQuestion[]): void {
  const expectedKeys = expected.map((q) => q.key).sort();
  const askedKeys = asked.map((q) => q.key).sort();
  if (!isDeepStrictEqual(expectedKeys, askedKeys)) throw new Deviation(`asked for ${show(askedKeys)}, expected ${show(expectedKeys)}`);
  for (const want of expected) {
    const got = asked.find((q) => q.key === want.key)!;
    if (got.mode !== want.mode) throw new Deviation(`${want.key}: mode ${show(got.mode)}, expected ${show(want.mode)}`);
    if (got.message !== want.message) throw new Deviation(`${want.key}: message ${show(got.message)}, expected ${show(want.message)}`);
    if (want.choices && !isDeepStrictEqual(got.choices, want.choices))
      throw new Deviation(`${want.key}: choices ${show(got.choices)}, expected ${show(want.choices)}`);
    if (want.url !== undefined && got.url !== want.url)
      throw new Deviation(`${want.key}: url ${show(got.url)}, expected ${show(want.url)}`);
  }
}

async function runOnce(client: Client, recorder: WireRecorder, operation: Operation, run: ScriptedRun, record: RunRecord): Promise<void> {
  let retry: Record<string, unknown> = {};
  let previousState: string | undefined;
  for (let index = 0; ; index++) {
    const round: RoundRecord = {
      round: index + 1,
      sentAnswers: Object.keys((retry.inputResponses as object | undefined) ?? {}),
      sentState: retry.requestState !== undefined,
      outcome: "error",
      asked: [],
      stateOnly: false,
    };
    record.rounds.push(round);
    const fail = (message: string): never => {
      throw new Deviation(`round ${round.round}${run.label ? ` (${run.label})` : ""}: ${message}`);
    };
    let result: Record<string, unknown>;
    try {
      result = await send(client, operation, retry);
    } catch (error) {
      round.result = { error: error instanceof Error ? error.message : String(error) };
      return fail(`the request failed: ${(round.result as { error: string }).error}`);
    }
    const raw = recorder.lastResult(operation.method) as RawResult | undefined;
    if (!raw) return fail("no response was recorded on the wire");
    const scripted = run.rounds[index];
    const resultType = raw.resultType;

    if (resultType === "input_required") {
      round.outcome = "input_required";
      round.asked = readQuestions(raw);
      round.stateOnly = raw.inputRequests === undefined && typeof raw.requestState === "string";
      if (!scripted) return fail(`expected a complete result, got input_required asking ${show(round.asked.map((q) => q.key))}`);
      try {
        if (scripted.asks.length === 0) {
          if (!round.stateOnly)
            throw new Deviation(`expected a state-only continuation (requestState, no inputRequests), got ${show(withoutMeta(raw))}`);
        } else compareQuestions(scripted.asks, round.asked);
        if (typeof raw.requestState !== "string") throw new Deviation("input_required without a requestState");
        if (raw.requestState === previousState) throw new Deviation("the requestState did not change from the previous round");
      } catch (error) {
        if (error instanceof Deviation) return fail(error.message);
        throw error;
      }
      previousState = raw.requestState;
      round.answers = scripted.answers;
      retry = { ...(Object.keys(scripted.answers).length > 0 && { inputResponses: scripted.answers }), requestState: raw.requestState };
      continue;
    }

    round.outcome = resultType === "complete" ? "complete" : "error";
    round.result = withoutMeta(result);
    if (scripted)
      return fail(
        `expected input_required asking ${show(scripted.asks.map((q) => q.key))}, got ${show(resultType)}: ${show(round.result)}`,
      );
    if (resultType !== "complete") return fail(`resultType ${show(resultType)} on the wire, expected "complete"`);
    if ("requestState" in raw || "inputRequests" in raw) return fail("a complete result carried requestState or inputRequests");
    if (!isDeepStrictEqual(round.result, run.result)) return fail(`result ${show(round.result)}, expected ${show(run.result)}`);
    return;
  }
}

/** Runs every scripted run of `workflow` in order and records what happened. */
export async function runWorkflow(client: Client, recorder: WireRecorder, workflow: Workflow): Promise<WorkflowRecord> {
  const started = performance.now();
  const runs: RunRecord[] = [];
  let failure: string | undefined;
  for (const run of workflow.runs) {
    const record: RunRecord = { ...(run.label !== undefined && { label: run.label }), rounds: [] };
    runs.push(record);
    try {
      await runOnce(client, recorder, workflow.operation, run, record);
    } catch (error) {
      record.failure = error instanceof Error ? error.message : String(error);
      failure = record.failure;
      break;
    }
  }
  const requests = runs.reduce((sum, r) => sum + r.rounds.length, 0);
  return { workflow, runs, requests, ms: performance.now() - started, ...(failure !== undefined && { failure }) };
}
