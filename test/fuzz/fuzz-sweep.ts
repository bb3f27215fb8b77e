// Runs fuzz cases against targets and counts what must never happen: a -32603 for anything a
// client sent, a 5xx, a body or line that is not a valid JSON-RPC message (checked against the
// official 2026-07-28 schema too), and a request that is never answered. Used by `npm run fuzz`
// (test/fuzz/run-fuzz.ts) and by the slice in `npm test` (test/e2e/fuzz-slice.e2e.test.ts).
import { RESULT_DEFS, validateServerMessage } from "../support/wire-schema";
import { createFuzzApp } from "../e2e/fixtures/fuzz-app";
import { fixtureCommand } from "../support/fixture-server";
import { fuzzCases, type FuzzCase } from "./fuzz-cases";
import { HttpTarget, InProcessTarget, StdioTarget, type FuzzTarget, type Observation } from "./fuzz-targets";

export interface Counts {
  /** Mutated requests sent. */
  sent: number;
  /** -32603 answers. */
  internalErrors: number;
  /** HTTP statuses of 500 and above. */
  serverErrors: number;
  /** Bodies, lines or messages that are not valid JSON-RPC (or break the wire schema). */
  invalidMessages: number;
  /** Requests never answered (or connections that failed). */
  hangs: number;
}

export interface TargetReport extends Counts {
  readonly target: string;
  readonly seconds: number;
  /** The first few failures, to reproduce them. */
  readonly examples: string[];
}

const EXAMPLES = 5;

/** The problems of one observation, as short lines; empty when it is as it must be. */
export function problemsOf(fuzz: FuzzCase, seen: Observation): { kind: keyof Omit<Counts, "sent">; text: string }[] {
  const problems: { kind: keyof Omit<Counts, "sent">; text: string }[] = [];
  if (seen.hang) problems.push({ kind: "hangs", text: seen.hang });
  if (seen.status !== undefined && seen.status >= 500) problems.push({ kind: "serverErrors", text: `HTTP ${seen.status}` });
  for (const text of seen.notJson) problems.push({ kind: "invalidMessages", text: `not JSON: ${text}` });
  const method = (fuzz.message as { method?: unknown } | undefined)?.method;
  for (const message of seen.messages) {
    const problem = messageProblem(message, typeof method === "string" ? method : undefined);
    if (problem) problems.push({ kind: "invalidMessages", text: problem });
    const code = (message as { error?: { code?: unknown } }).error?.code;
    if (code === -32603) problems.push({ kind: "internalErrors", text: `-32603 ${JSON.stringify(message).slice(0, 200)}` });
  }
  return problems;
}

function messageProblem(message: unknown, method: string | undefined): string | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message))
    return `not a JSON-RPC object: ${JSON.stringify(message)?.slice(0, 100)}`;
  const m = message as Record<string, unknown>;
  // JSON-RPC 2.0 writes an unknown id as null, as the SDK's HTTP entry does; the 2026-07-28 schema
  // leaves it out. Both are valid JSON-RPC: the schema is checked without a null id.
  const { id, ...rest } = m;
  const checked = id === null && "error" in m ? rest : m;
  try {
    const modern =
      method !== undefined && method in RESULT_DEFS && typeof (m.result as { resultType?: unknown } | undefined)?.resultType === "string";
    validateServerMessage(checked, modern ? method : undefined);
    return undefined;
  } catch (error) {
    // A 2025-era result (the SDK's compatibility leg) has no resultType: only its envelope is checked.
    if (m.jsonrpc === "2.0" && "result" in m && !("error" in m) && (typeof id === "string" || typeof id === "number")) return undefined;
    return `${(error as Error).message.split("\n")[0]!.slice(0, 200)}`;
  }
}

/** Sends `cases` to `target` one by one (one in flight) and counts the problems. */
export async function sweep(target: FuzzTarget, cases: readonly FuzzCase[], deadline: number): Promise<TargetReport> {
  const started = Date.now();
  const counts: Counts = { sent: 0, internalErrors: 0, serverErrors: 0, invalidMessages: 0, hangs: 0 };
  const examples: string[] = [];
  for (const fuzz of cases) {
    if (Date.now() > deadline) break;
    if (target instanceof InProcessTarget && !target.accepts(fuzz)) continue;
    const seen = await target.send(fuzz);
    counts.sent++;
    const problems = problemsOf(fuzz, seen);
    for (const problem of problems) counts[problem.kind]++;
    if (problems.length > 0 && examples.length < EXAMPLES) {
      const body = typeof fuzz.body === "string" ? fuzz.body : fuzz.body.toString("latin1");
      examples.push(`[${fuzz.kinds.join(", ")}] ${fuzz.httpMethod} ${body.slice(0, 300)} -> ${problems.map((p) => p.text).join(" | ")}`);
    }
  }
  return { target: target.name, seconds: (Date.now() - started) / 1000, examples, ...counts };
}

export interface SweepOptions {
  readonly seed: number;
  /** Cases per target. */
  readonly perTarget: number;
  /** Seconds in all; a target stops sending when they are spent. */
  readonly seconds: number;
  /** Milliseconds one case may wait for its answer. */
  readonly answerTimeoutMs: number;
}

/** The sweep over the three boundaries, each with its own app (stdio: a child process). */
export async function sweepAll(options: SweepOptions): Promise<TargetReport[]> {
  const deadline = Date.now() + options.seconds * 1000;
  const reports: TargetReport[] = [];
  const app = createFuzzApp();
  try {
    const listener = await app.listen({ port: 0 });
    const targets: (() => Promise<FuzzTarget>)[] = [
      async () => new HttpTarget(listener.url, options.answerTimeoutMs),
      async () => new StdioTarget(fixtureCommand("fuzz"), options.answerTimeoutMs),
      async () => InProcessTarget.open((serverSide) => app.serve(serverSide), options.answerTimeoutMs),
    ];
    for (const [index, open] of targets.entries()) {
      const target = await open();
      // Each target gets cases of its own (another seed), and an equal share of the time left.
      const share = Date.now() + (deadline - Date.now()) / (targets.length - index);
      try {
        reports.push(await sweep(target, fuzzCases(options.seed + index, options.perTarget), share));
      } finally {
        await target.close();
      }
    }
  } finally {
    await app.close();
  }
  return reports;
}

/** Sum of the counts of several reports. */
export function total(reports: readonly TargetReport[]): Counts {
  const sum: Counts = { sent: 0, internalErrors: 0, serverErrors: 0, invalidMessages: 0, hangs: 0 };
  for (const r of reports) for (const key of Object.keys(sum) as (keyof Counts)[]) sum[key] += r[key];
  return sum;
}
