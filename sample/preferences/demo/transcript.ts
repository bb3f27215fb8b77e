// Turns workflow records into the readable transcript, the --check lines and the summary line.
import type { AskedQuestion, RoundRecord, WorkflowRecord } from "./run-workflow";
import type { Operation } from "./workflows";
import type { TransportName } from "./servers";

export interface TransportRecords {
  transport: TransportName;
  served?: string;
  /** A failure that is not one workflow's (could not start, wrong build loaded). */
  failure?: string;
  workflows: WorkflowRecord[];
}

const show = (value: unknown): string => JSON.stringify(value);

export function describeOperation(operation: Operation): string {
  switch (operation.method) {
    case "tools/call":
      return `tools/call ${operation.params.name}`;
    case "resources/read":
      return `resources/read ${operation.params.uri}`;
    case "prompts/get":
      return `prompts/get ${operation.params.name}`;
  }
}

function question(q: AskedQuestion): string {
  const detail =
    q.mode === "url"
      ? `  url: ${q.url} (consent only; nothing is fetched or opened)`
      : q.choices
        ? `  choices: ${q.choices.join(" | ")}`
        : "";
  return `${q.key} [${q.mode}] ${show(q.message)}${detail}`;
}

function resultLines(result: unknown): string[] {
  const r = (result ?? {}) as Record<string, unknown>;
  if ("error" in r && Object.keys(r).length === 1) return [`error ${show(r.error)}`];
  const lines: string[] = [];
  if (r.isError === true) lines.push("isError true");
  if (r.structuredContent !== undefined) lines.push(`structuredContent ${show(r.structuredContent)}`);
  for (const block of (r.content as { type: string; text?: string }[] | undefined) ?? [])
    lines.push(block.type === "text" ? `text ${show(block.text)}` : `${block.type} block`);
  for (const c of (r.contents as { uri: string; mimeType?: string; text?: string }[] | undefined) ?? []) {
    lines.push(`contents ${c.uri} (${c.mimeType ?? "no mimeType"}): ${show(c.text)}`);
  }
  for (const m of (r.messages as { role: string; content: { type: string; text?: string } }[] | undefined) ?? []) {
    lines.push(`message ${m.role}: ${m.content.type === "text" ? show(m.content.text) : `${m.content.type} content`}`);
  }
  return lines.length > 0 ? lines : [show(r)];
}

function sentText(round: RoundRecord): string {
  if (round.sentAnswers.length === 0 && !round.sentState) return "first request, no answers";
  if (round.sentAnswers.length === 0) return round.sentState ? "requestState only (no inputResponses)" : "no answers, no requestState";
  return `inputResponses {${round.sentAnswers.join(", ")}}${round.sentState ? " + requestState" : " (no requestState)"}`;
}

function roundLines(round: RoundRecord, indent: string): string[] {
  const head = `${indent}round ${round.round}  `;
  const pad = " ".repeat(head.length);
  const lines = [`${head}sent     ${sentText(round)}`];
  if (round.outcome === "input_required") {
    if (round.stateOnly) lines.push(`${pad}got      input_required with a requestState and no inputRequests (state-only continuation)`);
    for (const q of round.asked) lines.push(`${pad}asked    ${question(q)}`);
    const answers = Object.entries(round.answers ?? {});
    if (answers.length === 0) lines.push(`${pad}answered nothing: retry at once, echoing the requestState`);
    for (const [key, answer] of answers) {
      lines.push(`${pad}answered ${key}: ${answer.action}${"content" in answer && answer.content ? ` ${show(answer.content)}` : ""}`);
    }
  } else if (round.result !== undefined) {
    const [first, ...rest] = resultLines(round.result);
    lines.push(`${pad}result   ${round.outcome}: ${first}`);
    for (const line of rest) lines.push(`${pad}         ${line}`);
  }
  return lines;
}

/** The full transcript of one transport's workflows. */
export function transcript(records: TransportRecords): string[] {
  const lines = ["", `=== ${records.transport}: ${records.served ?? "(not started)"} ===`];
  if (records.failure) lines.push(`FAILED ${records.failure}`);
  for (const w of records.workflows) {
    const labels = w.workflow.runs.map((r) => r.label).filter((l) => l !== undefined);
    lines.push(
      "",
      `--- ${w.workflow.id}: ${describeOperation(w.workflow.operation)}${labels.length > 0 ? ` (answered ${labels.join(", then ")})` : ""} ---`,
    );
    for (const run of w.runs) {
      if (run.label) lines.push(`  answering ${run.label}:`);
      const indent = run.label ? "    " : "  ";
      for (const round of run.rounds) lines.push(...roundLines(round, indent));
      if (run.failure) lines.push(`${indent}FAILED ${run.failure}`);
    }
  }
  return lines;
}

/** One line per workflow for --check: ok, or FAIL naming the transport, workflow and round. */
export function checkLines(records: TransportRecords): string[] {
  const lines: string[] = [];
  if (records.failure) lines.push(`FAIL ${records.transport}: ${records.failure}`);
  for (const w of records.workflows) {
    const name = `${records.transport}/${w.workflow.id} (${describeOperation(w.workflow.operation)})`;
    lines.push(w.failure ? `FAIL ${name} ${w.failure}` : `ok   ${name}: ${w.requests} rounds, ${Math.round(w.ms)} ms`);
  }
  return lines;
}

/** "summary: 10/10 runs passed in 1.2 s | stdio: tool 3 rounds 40 ms, ... | http: ..." */
export function summaryLine(all: readonly TransportRecords[], expectedRuns: number, seconds: number): string {
  const passed = all.reduce((n, t) => n + (t.failure ? 0 : t.workflows.filter((w) => !w.failure).length), 0);
  const parts = all.map(
    (t) =>
      `${t.transport}: ${t.workflows.map((w) => `${w.workflow.id} ${w.failure ? "FAILED" : `${w.requests} rounds ${Math.round(w.ms)} ms`}`).join(", ") || "not run"}`,
  );
  return `summary: ${passed}/${expectedRuns} runs passed in ${seconds.toFixed(1)} s | ${parts.join(" | ")}`;
}
