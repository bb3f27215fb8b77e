// The HTTP benchmark's load: autocannon drives one exchange (bench-exchanges.ts) against one
// server for a number of seconds (or of requests), checking every answer, and the trial reports
// completed calls (or whole round trips) per second, the failures, and the server's CPU per call.
// A call of two rounds is a sequence of two requests per connection: the first answer's
// requestState goes into the retry (autocannon's `requests` with `onResponse`/`setupRequest`);
// only a retry that completes after a good first answer counts as a round trip.
import type { RunningServer } from "./bench-process";
import { processCpuSeconds } from "./bench-process";
import { requestStateOf, type Exchange } from "./bench-exchanges";

// ---- autocannon (no bundled types; only the parts used here) ----

interface RoundContext {
  requestState?: string;
}
interface AutocannonRequest {
  body?: string;
  setupRequest?: (request: AutocannonRequest, context: RoundContext) => AutocannonRequest | null;
  onResponse?: (status: number, body: string, context: RoundContext) => void;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  method: "POST";
  headers: Record<string, string>;
  body: string;
  verifyBody?: (body: string) => boolean;
  requests?: AutocannonRequest[];
}
interface AutocannonResult {
  duration: number;
  "2xx": number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number };
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: Autocannon = require("autocannon");

export interface Trial {
  /** Completed calls (whole round trips, for a call of two rounds) per second. */
  rate: number;
  completed: number;
  /** HTTP responses received, good or bad. */
  responses: number;
  /** Responses, errors and round trips that were not what they should be. */
  failed: number;
  problems: string[];
  /** Latency of one HTTP request, ms. */
  p50: number;
  p99: number;
  /** Server CPU per completed call, microseconds. */
  serverCpuUs?: number;
  /** Load generator (this process) CPU use during the trial, percent of one core. */
  loadgenCpuPercent: number;
}

const isOk = (status: number) => status >= 200 && status <= 299;

/** autocannon's options for one exchange, and how to count what completed. */
function load(exchange: Exchange): {
  options: Pick<AutocannonOptions, "verifyBody" | "requests">;
  completed: (r: AutocannonResult) => number;
  badBodies: (r: AutocannonResult) => number;
} {
  const first = exchange.first;
  if (!first) {
    // autocannon counts a response in 2xx before checking its body: a failed check is taken off.
    return {
      options: { verifyBody: exchange.final.accepts },
      completed: (r) => Math.max(0, r["2xx"] - r.mismatches),
      badBodies: (r) => r.mismatches,
    };
  }
  const counts = { completed: 0, badFirst: 0, badFinal: 0 };
  const requests: AutocannonRequest[] = [
    {
      body: exchange.body,
      onResponse: (status, body, context) => {
        context.requestState = isOk(status) && first.accepts(body) ? requestStateOf(body) : undefined;
        // A bad status is counted by autocannon (non-2xx); a bad 2xx body here.
        if (isOk(status) && context.requestState === undefined) counts.badFirst++;
      },
    },
    {
      // No good first answer: no retry; autocannon starts over with a first call.
      setupRequest: (request, context) =>
        context.requestState === undefined ? null : { ...request, body: first.retryBody(context.requestState) },
      onResponse: (status, body) => {
        if (!isOk(status)) return;
        if (exchange.final.accepts(body)) counts.completed++;
        else counts.badFinal++;
      },
    },
  ];
  return { options: { requests }, completed: () => counts.completed, badBodies: () => counts.badFirst + counts.badFinal };
}

/** Drives `exchange` against `server` for `seconds`, or for `amount` requests. */
export async function measure(
  server: RunningServer,
  exchange: Exchange,
  connections: number,
  limit: { seconds: number } | { amount: number },
): Promise<Trial> {
  const { options, completed, badBodies } = load(exchange);
  const serverCpuBefore = processCpuSeconds(server.child.pid);
  const ownBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  const r = await autocannon({
    url: server.url,
    connections,
    ...("seconds" in limit ? { duration: limit.seconds } : { amount: limit.amount }),
    method: "POST",
    headers: exchange.headers,
    body: exchange.body,
    ...options,
  });
  const wall = Number(process.hrtime.bigint() - wallBefore) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const serverCpuAfter = processCpuSeconds(server.child.pid);
  const done = completed(r);
  const bad = badBodies(r);
  const responses = r["2xx"] + r.non2xx;
  server.responses += responses;
  const problems: string[] = [];
  if (r.non2xx > 0) {
    const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
    problems.push(`non-2xx ${r.non2xx} ${JSON.stringify(codes)}`);
  }
  if (r.errors > 0) problems.push(`errors ${r.errors}`);
  if (r.timeouts > 0) problems.push(`timeouts ${r.timeouts}`);
  if (bad > 0) problems.push(`unsuccessful answers ${bad}`);
  return {
    rate: done / r.duration,
    completed: done,
    responses,
    failed: r.non2xx + r.errors + r.timeouts + bad,
    problems,
    p50: r.latency.p50,
    p99: r.latency.p99,
    serverCpuUs:
      serverCpuBefore !== undefined && serverCpuAfter !== undefined && done > 0
        ? ((serverCpuAfter - serverCpuBefore) * 1e6) / done
        : undefined,
    loadgenCpuPercent: ((own.user + own.system) / 1e6 / wall) * 100,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** One line for a trial: `unit` is what `rate` counts ("calls", "round trips"). */
export function describeTrial(label: string, round: string, unit: string, t: Trial): string {
  const cpu = t.serverCpuUs !== undefined ? `server CPU ${fmt(t.serverCpuUs)} µs per ${unit.replace(/s$/, "")}, ` : "";
  return (
    `  ${round.padEnd(8)} ${label.padEnd(44)} ${fmt(t.rate).padStart(8)} ${unit}/s   ` +
    `p50 ${t.p50} ms, p99 ${t.p99} ms, ${cpu}load generator ${fmt(t.loadgenCpuPercent)}% CPU` +
    (t.problems.length > 0 ? `   !! ${t.problems.join(", ")}` : "")
  );
}
