// HTTP throughput benchmark (not a test): plain `tools/call` over loopback at concurrency 16 for
// an app of 3 components, one of 1,000, and a bare node:http server answering fixed JSON (the
// machine's ceiling), plus the official SDK alone on the same path as a reference. Each server runs
// in its own child process; autocannon drives them from this
// one. Trials alternate A, B, C, A, B, C, ... so drift in the machine hits all three alike; the
// median calls/s of each server and the ratios against the targets are printed.
//
// Run: ts-node --transpile-only test/bench/http-bench.ts
// Env: BENCH_SECONDS (per trial, default 5), BENCH_TRIALS (per server, default 5),
//      BENCH_WARMUP (seconds per server, default 2), BENCH_CONNECTIONS (default 16),
//      BENCH_CPU_PROF=<dir> (start the app servers under `node --cpu-prof`, profiles written there on exit).
// Exit code 0 whether or not a target is met; 1 when the benchmark cannot run (a server does not
// start, or the pre-flight call is not a successful result).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

// ---- autocannon (no bundled types; only the parts used here) ----

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method: "POST";
  headers: Record<string, string>;
  body: string;
  verifyBody?: (body: string) => boolean;
}
interface AutocannonResult {
  duration: number;
  "2xx": number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number; average: number };
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: Autocannon = require("autocannon");

// ---- configuration ----

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) {
    console.error(`${name} must be a number >= ${min}, got "${raw}"`);
    process.exit(1);
  }
  return value;
}

const SECONDS = envNumber("BENCH_SECONDS", 5, 1);
const TRIALS = Math.floor(envNumber("BENCH_TRIALS", 5, 1));
const WARMUP = envNumber("BENCH_WARMUP", 2, 0);
const CONNECTIONS = Math.floor(envNumber("BENCH_CONNECTIONS", 16, 1));
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const TARGET_LARGE_OVER_SMALL = 0.9;
const TARGET_SMALL_OVER_CEILING = 0.5;
const STARTUP_TIMEOUT_MS = 120_000;

const ROOT = resolve(__dirname, "..", "..");
const SERVERS_DIR = resolve(__dirname, "servers");
const TS_NODE = require.resolve("ts-node/register/transpile-only", { paths: [ROOT] });

const TOOL = "add";
const PROTOCOL_VERSION = "2026-07-28";
const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: TOOL,
    arguments: { a: 1, b: 2 },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": PROTOCOL_VERSION,
  "mcp-method": "tools/call",
  "mcp-name": TOOL,
};
/** Cheap per-response check: the add tool's answer, not a JSON-RPC error. */
const looksSuccessful = (body: string) => body.includes('"sum":3') && !body.includes('"error"');

// ---- servers ----

interface ServerSpec {
  label: string;
  file: string;
  env: Record<string, string>;
  profile: boolean;
}

interface RunningServer {
  spec: ServerSpec;
  child: ChildProcess;
  url: string;
}

const SERVERS: ServerSpec[] = [
  { label: "app, 3 components", file: "app-server.ts", env: { BENCH_COMPONENTS: "3" }, profile: true },
  { label: "app, 1,000 components", file: "app-server.ts", env: { BENCH_COMPONENTS: "1000" }, profile: true },
  { label: "ceiling (bare node:http)", file: "ceiling-server.ts", env: {}, profile: false },
  { label: "sdk-only (no framework)", file: "sdk-server.ts", env: {}, profile: false },
];

const children = new Set<ChildProcess>();

function startServer(spec: ServerSpec): Promise<RunningServer> {
  const nodeArgs = spec.profile && CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, "-r", TS_NODE, resolve(SERVERS_DIR, spec.file)], {
    cwd: ROOT,
    env: { ...process.env, ...spec.env },
    // stdin stays open as a lifeline: the server exits when it ends (this process died).
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return new Promise<RunningServer>((resolveStart, rejectStart) => {
    const timer = setTimeout(() => rejectStart(new Error(`${spec.label}: no URL printed within ${STARTUP_TIMEOUT_MS / 1000} s`)), STARTUP_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      clearTimeout(timer);
      const url = line.trim();
      if (!/^http:\/\/\S+$/.test(url)) rejectStart(new Error(`${spec.label}: expected a URL on the first stdout line, got "${line}"`));
      else resolveStart({ spec, child, url });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      rejectStart(new Error(`${spec.label}: server exited before it was ready (code ${code}, signal ${signal})`));
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      rejectStart(error);
    });
  });
}

async function stopAll(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((done) => {
          const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
          child.once("exit", () => {
            clearTimeout(force);
            done();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}

/** One call with fetch before measuring: the answer must be a successful tools/call result. */
async function preflight(server: RunningServer): Promise<void> {
  const response = await fetch(server.url, { method: "POST", headers: HEADERS, body: BODY });
  const text = await response.text();
  const fail = (why: string): never => {
    throw new Error(`${server.spec.label}: pre-flight tools/call failed: ${why}\n  status ${response.status}, body: ${text.slice(0, 500)}`);
  };
  if (response.status < 200 || response.status > 299) fail("non-2xx status");
  let message: { id?: unknown; result?: Record<string, unknown>; error?: unknown } | undefined;
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    for (const line of text.split(/\r?\n/)) {
      if (!line.startsWith("data:")) continue;
      try {
        const parsed = JSON.parse(line.slice(5));
        if (parsed && parsed.id === 1) message = parsed;
      } catch {
        // not this event
      }
    }
  } else {
    try {
      message = JSON.parse(text);
    } catch {
      fail("body is not JSON");
    }
  }
  if (!message) return fail("no JSON-RPC response with id 1");
  if (message.error !== undefined) fail("JSON-RPC error");
  if (!message.result) fail("no result");
  if (message.result!.isError === true) fail("tool result has isError: true");
  if (message.result!.resultType !== undefined && message.result!.resultType !== "complete") fail(`resultType is ${String(message.result!.resultType)}`);
  if ((message.result!.structuredContent as { sum?: unknown } | undefined)?.sum !== 3) fail("structuredContent.sum is not 3");
  if (!looksSuccessful(text)) fail("the per-response check would not accept this body");
}

// ---- measurement ----

/** CPU seconds (user + system) a process has used, from /proc; undefined where unavailable. */
function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

interface Trial {
  callsPerSecond: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  p50: number;
  p99: number;
  /** Server CPU per successful call, microseconds. */
  serverCpuUsPerCall?: number;
  /** Load generator (this process) CPU use during the trial, percent of one core. */
  loadgenCpuPercent: number;
}

async function measure(server: RunningServer, seconds: number): Promise<Trial> {
  const serverCpuBefore = processCpuSeconds(server.child.pid);
  const ownBefore = process.cpuUsage();
  const wallBefore = process.hrtime.bigint();
  const r = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    method: "POST",
    headers: HEADERS,
    body: BODY,
    verifyBody: looksSuccessful,
  });
  const wall = Number(process.hrtime.bigint() - wallBefore) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const serverCpuAfter = processCpuSeconds(server.child.pid);
  // autocannon counts a response in 2xx before checking its body: a failed check is taken off.
  const ok = Math.max(0, r["2xx"] - r.mismatches);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    callsPerSecond: ok / r.duration,
    ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    statusCodes,
    p50: r.latency.p50,
    p99: r.latency.p99,
    serverCpuUsPerCall:
      serverCpuBefore !== undefined && serverCpuAfter !== undefined && ok > 0 ? ((serverCpuAfter - serverCpuBefore) * 1e6) / ok : undefined,
    loadgenCpuPercent: ((own.user + own.system) / 1e6 / wall) * 100,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pad = (s: string, n: number) => s.padEnd(n);

function describeTrial(label: string, round: string, t: Trial): string {
  const problems: string[] = [];
  if (t.non2xx > 0) problems.push(`non-2xx ${t.non2xx} ${JSON.stringify(t.statusCodes)}`);
  if (t.errors > 0) problems.push(`errors ${t.errors}`);
  if (t.timeouts > 0) problems.push(`timeouts ${t.timeouts}`);
  if (t.mismatches > 0) problems.push(`unsuccessful bodies ${t.mismatches}`);
  const cpu = t.serverCpuUsPerCall !== undefined ? `server CPU ${fmt(t.serverCpuUsPerCall)} µs/call, ` : "";
  return (
    `  ${pad(round, 8)} ${pad(label, 26)} ${fmt(t.callsPerSecond).padStart(8)} calls/s   ` +
    `p50 ${t.p50} ms, p99 ${t.p99} ms, ${cpu}load generator ${fmt(t.loadgenCpuPercent)}% CPU` +
    (problems.length > 0 ? `   !! ${problems.join(", ")}` : "")
  );
}

// ---- main ----

async function main(): Promise<void> {
  const cpuList = cpus();
  const started = Date.now();
  console.log("roundtrip-mcp HTTP benchmark: tools/call over loopback");
  console.log(`  machine: ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? "unknown"}), ${process.platform}/${process.arch}`);
  console.log(`  node ${process.version}; autocannon, ${CONNECTIONS} connections; ${TRIALS} trial(s) of ${SECONDS} s per server after ${WARMUP} s warm-up`);
  if (CPU_PROF_DIR) console.log(`  app servers run under --cpu-prof, profiles in ${CPU_PROF_DIR}`);

  const servers: RunningServer[] = [];
  // Started one after another so the 1,000-component bootstrap does not compete with the others.
  for (const spec of SERVERS) {
    const server = await startServer(spec);
    servers.push(server);
    console.log(`  started ${pad(spec.label, 26)} pid ${server.child.pid}  ${server.url}`);
  }
  for (const server of servers) await preflight(server);
  console.log("  pre-flight: every server answered the tools/call with a successful result");

  if (WARMUP > 0) {
    console.log(`\nwarm-up (${WARMUP} s each)`);
    for (const server of servers) {
      const t = await measure(server, WARMUP);
      console.log(describeTrial(server.spec.label, "warm-up", t));
    }
  }

  console.log(`\ntrials (alternating)`);
  const results = new Map<RunningServer, Trial[]>(servers.map((s) => [s, []]));
  for (let round = 1; round <= TRIALS; round++) {
    for (const server of servers) {
      const t = await measure(server, SECONDS);
      results.get(server)!.push(t);
      console.log(describeTrial(server.spec.label, `${round}/${TRIALS}`, t));
    }
  }

  const [small, large, ceiling, sdkOnly] = servers.map((s) => {
    const trials = results.get(s)!;
    return {
      label: s.spec.label,
      median: median(trials.map((t) => t.callsPerSecond)),
      min: Math.min(...trials.map((t) => t.callsPerSecond)),
      max: Math.max(...trials.map((t) => t.callsPerSecond)),
      cpu: trials.every((t) => t.serverCpuUsPerCall !== undefined) ? median(trials.map((t) => t.serverCpuUsPerCall!)) : undefined,
      failures: trials.reduce((n, t) => n + t.non2xx + t.errors + t.timeouts + t.mismatches, 0),
    };
  });

  console.log(`\nresults (median of ${TRIALS} trial(s); successful 2xx calls only)`);
  for (const s of [small, large, ceiling, sdkOnly]) {
    const cpu = s.cpu !== undefined ? `   server CPU ${fmt(s.cpu)} µs/call` : "";
    const failures = s.failures > 0 ? `   !! ${s.failures} non-2xx/errors/timeouts/unsuccessful bodies` : "";
    console.log(`  ${pad(s.label, 26)} ${fmt(s.median).padStart(8)} calls/s   (min ${fmt(s.min)}, max ${fmt(s.max)})${cpu}${failures}`);
  }
  const ratioLarge = large.median / small.median;
  const ratioCeiling = small.median / ceiling.median;
  const verdict = (ratio: number, target: number) => (ratio >= target ? "PASS" : "FAIL");
  console.log("\nratios");
  console.log(`  1,000 components / 3 components: ${ratioLarge.toFixed(3)}   target >= ${TARGET_LARGE_OVER_SMALL}   ${verdict(ratioLarge, TARGET_LARGE_OVER_SMALL)}`);
  console.log(`  3 components / ceiling:          ${ratioCeiling.toFixed(3)}   target >= ${TARGET_SMALL_OVER_CEILING}   ${verdict(ratioCeiling, TARGET_SMALL_OVER_CEILING)}`);
  console.log(
    `  (not judged: 3 components / sdk-only ${(small.median / sdkOnly.median).toFixed(3)} = the framework's own cost; ` +
      `sdk-only / ceiling ${(sdkOnly.median / ceiling.median).toFixed(3)} = the most any framework on the SDK's HTTP entry can reach)`,
  );
  if (small.cpu !== undefined && large.cpu !== undefined && ceiling.cpu !== undefined) {
    // Server CPU per call moves less than calls/s when other work shares the machine.
    console.log(
      `  (for reference, from server CPU per call: 1,000/3 ${(small.cpu / large.cpu).toFixed(3)}, ` +
        `3/ceiling ${(ceiling.cpu / small.cpu).toFixed(3)}; not judged)`,
    );
  }
  const missed = [ratioLarge < TARGET_LARGE_OVER_SMALL, ratioCeiling < TARGET_SMALL_OVER_CEILING].filter(Boolean).length;
  console.log(missed === 0 ? "\nall targets met" : `\n${missed} target(s) MISSED (benchmark exits 0; the figures above are the result)`);
  console.log(`total time ${fmt((Date.now() - started) / 1000, 1)} s`);
}

let exiting = false;
async function finish(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  await stopAll();
  process.exit(code);
}

process.on("SIGINT", () => void finish(130));
process.on("SIGTERM", () => void finish(143));

main().then(
  () => finish(0),
  (error: unknown) => {
    console.error(`\nbenchmark aborted: ${error instanceof Error ? error.message : String(error)}`);
    return finish(1);
  },
);
