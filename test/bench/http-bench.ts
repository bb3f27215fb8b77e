// HTTP benchmark (not a test; `npm run bench`, which builds first): every HTTP target of the
// performance issue, each figure printed beside its target with met / MISSED. Scenarios:
//   plain        tools/call over loopback for an app of 3 components, one of 1,000, a bare
//                node:http server answering the app's recorded answer (the machine's ceiling), and
//                the official SDK alone (a reference, not judged).
//                Targets: 3 components >= 0.5x the ceiling; 1,000 components >= 0.9x of 3.
//   elicitation  whole round trips of a tool with an @Elicit question (call -> input_required with
//                the question and requestState -> retry with the answer and that state -> complete),
//                app of 3 components against the ceiling server replaying the app's recorded
//                answers to the same exchanges. Target: >= 0.5x the ceiling.
//   state        the same for a sealed-state round trip (a state-only round: input_required with
//                requestState and no question; the retry carries it back and completes).
//                Target: >= 0.5x the ceiling.
//   list         tools/list (its first page of 100) on the app of 1,000 components. Target: server CPU < 1 ms per call;
//                the response size is printed.
//   memory       on the app of 3 components: plain calls until the app has served at least
//                100,000 requests in the whole run (its memory sampled every 25,000), then its RSS
//                (with the V8 heap's share), beside the ceiling server's after as many requests (the
//                floor: bare node:http); then heap allocated per plain call (v8.GCProfiler inside the
//                server, see servers/heap-allocation.ts; after the RSS, whose figure it would raise).
//                Targets: <= 50 KB per call; RSS <= 120 MB (1 KB = 1,024 bytes, 1 MB = 1,024 KB).
//   ratelimit    plain calls on the app of 3 components with rate limits on every component and
//                BENCH_RATE_LIMIT_CALLERS principals (default 5,000) calling in turn (servers/app-server.ts),
//                beside the same app without them: calls/s and server CPU (not judged), then its memory
//                after 100,000 requests (sampled every 25,000: the old generation, where per-call churn
//                of the limiter's table would pile up) beside the app without rate limits after as many.
//                Target: RSS <= 120 MB.
// Each server runs as compiled JavaScript (dist/test/bench/servers) in its own child process;
// autocannon drives them from this one and every answer is checked (see bench-exchanges.ts). Trials
// alternate over every server and scenario (A, B, C, ..., A, B, C, ...) so drift in the machine hits
// all alike; the median of each is judged, and the server's CPU per call (from /proc) is printed
// beside its calls/s. Beside each judged ratio, two not judged: the ratio of server CPU per call,
// and the median of the ratios within each round (whose trials ran back to back, so the machine's
// slow drift cancels in each). A target counts as met only when no answer of its servers failed.
// seal+open per second is `npm run bench:sealer`'s target, not measured here.
//
// Run: npm run bench (builds first; running this file alone measures the last build).
// Env: BENCH_SECONDS (per trial, default 3), BENCH_TRIALS (per server and scenario, default 5),
//      BENCH_WARMUP (seconds per server and scenario, default 2), BENCH_CONNECTIONS (default 16),
//      BENCH_ONLY=<comma list of scenarios> (default all: plain,elicitation,state,list,memory,ratelimit),
//      BENCH_RATE_LIMIT_CALLERS (principals of the ratelimit scenario, default 5,000),
//      BENCH_CPU_PROF=<dir> (start the app servers under `node --cpu-prof`, profiles written there on exit;
//      BENCH_BASELINE's into <dir>/before),
//      BENCH_NODE_FLAGS="<flags>" (node or V8 flags for every server alike, e.g. --trace-gc; default none),
//      BENCH_PIN=off (do not pin: by default, where taskset exists, the load generator runs on CPU 0
//      and every server on CPU 1; see bench-process.ts).
//      BENCH_BASELINE=<another checkout, built> (the code before a change: that checkout's app of 3
//      components runs beside this one's in the plain, elicitation and state scenarios, its trials
//      alternated with the others, and "now / before" is printed for each, by calls/s, by server
//      CPU and as the median of the ratios within each round; not judged).
// Exit code 0 whether or not a target is met; 1 when the benchmark cannot run (a server does not
// start, or a pre-flight exchange or a memory probe fails).
import { cpus } from "node:os";
import { resolve } from "node:path";
import { NODE_FLAGS, pinning, startServer, stopAllServers, type RunningServer, type ServerSpec } from "./bench-process";
import { ELICITATION, listExchange, PLAIN, preflight, SEALED_STATE, type Exchange } from "./bench-exchanges";
import { describeTrial, fmt, measure, median, type Trial } from "./bench-load";
import { EXCHANGES_ENV, type RecordedExchange } from "./servers/recorded-exchange";

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

const SCENARIOS = ["plain", "elicitation", "state", "list", "memory", "ratelimit"] as const;
type Scenario = (typeof SCENARIOS)[number];

function selectedScenarios(): Set<Scenario> {
  const raw = process.env.BENCH_ONLY?.trim();
  if (!raw) return new Set(SCENARIOS);
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length > 0 || names.length === 0) {
    console.error(`BENCH_ONLY must be a comma list of ${SCENARIOS.join(", ")}; unknown: ${unknown.join(", ") || "(empty)"}`);
    process.exit(1);
  }
  return new Set(names as Scenario[]);
}

const SECONDS = envNumber("BENCH_SECONDS", 3, 1);
const TRIALS = Math.floor(envNumber("BENCH_TRIALS", 5, 1));
const WARMUP = envNumber("BENCH_WARMUP", 2, 0);
const CONNECTIONS = Math.floor(envNumber("BENCH_CONNECTIONS", 16, 1));
const ONLY = selectedScenarios();
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const RATE_LIMIT_CALLERS = Math.floor(envNumber("BENCH_RATE_LIMIT_CALLERS", 5000, 1));

const LARGE_COMPONENTS = 1000;
const TARGET = {
  smallOverCeiling: 0.5,
  largeOverSmall: 0.9,
  roundTripOverCeiling: 0.5,
  listCpuMs: 1,
  allocationKb: 50,
  rssMb: 120,
} as const;
const RSS_AFTER_REQUESTS = 100_000;
const RSS_SAMPLE_EVERY = 25_000;
const KB = 1024;
const MB = 1024 * 1024;

const LIST = listExchange(LARGE_COMPONENTS);

const SMALL: ServerSpec = { label: "app, 3 components", name: "app-server", env: { BENCH_COMPONENTS: "3" }, cpuProfileDir: CPU_PROF_DIR };
const LARGE: ServerSpec = {
  label: "app, 1,000 components",
  name: "app-server",
  env: { BENCH_COMPONENTS: String(LARGE_COMPONENTS) },
  cpuProfileDir: CPU_PROF_DIR,
};
const SDK: ServerSpec = { label: "sdk-only (no framework)", name: "sdk-server", env: {} };
const RATE_LIMITED: ServerSpec = {
  label: `app, 3, rate limits (${fmt(RATE_LIMIT_CALLERS)} callers)`,
  name: "app-server",
  env: { BENCH_COMPONENTS: "3", BENCH_RATE_LIMIT_CALLERS: String(RATE_LIMIT_CALLERS) },
  cpuProfileDir: CPU_PROF_DIR,
};
const BASELINE_DIR = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const BASELINE: ServerSpec | undefined =
  BASELINE_DIR === undefined
    ? undefined
    : {
        label: "before, 3 components",
        name: "app-server",
        env: { BENCH_COMPONENTS: "3" },
        checkout: BASELINE_DIR,
        // Profiled too when the app is (BENCH_CPU_PROF), into a folder of its own.
        ...(CPU_PROF_DIR !== undefined && { cpuProfileDir: resolve(CPU_PROF_DIR, "before") }),
      };
const ceilingSpec = (recorded: RecordedExchange[]): ServerSpec => ({
  label: "ceiling (bare node:http)",
  name: "ceiling-server",
  env: { [EXCHANGES_ENV]: JSON.stringify(recorded) },
});

// ---- contestants: one server driven with one exchange ----

interface Contestant {
  readonly scenario: Scenario;
  readonly label: string;
  readonly server: RunningServer;
  readonly exchange: Exchange;
  /** What one completed unit is. */
  readonly unit: "calls" | "round trips";
  readonly trials: Trial[];
}

function contestant(scenario: Scenario, server: RunningServer, exchange: Exchange): Contestant {
  const unit = exchange.first ? "round trips" : "calls";
  return { scenario, label: `${scenario}: ${server.spec.label}`, server, exchange, unit, trials: [] };
}

interface Summary {
  readonly rate: number;
  readonly min: number;
  readonly max: number;
  readonly cpuUs?: number;
  readonly failed: number;
}

function summarize(c: Contestant): Summary {
  const rates = c.trials.map((t) => t.rate);
  const cpus = c.trials.map((t) => t.serverCpuUs);
  return {
    rate: median(rates),
    min: Math.min(...rates),
    max: Math.max(...rates),
    cpuUs: cpus.every((v) => v !== undefined) ? median(cpus as number[]) : undefined,
    failed: c.trials.reduce((n, t) => n + t.failed, 0),
  };
}

function printResults(contestants: Contestant[]): void {
  console.log(`\nresults (median of ${TRIALS} trial(s); completed calls and round trips only)`);
  for (const c of contestants) {
    const s = summarize(c);
    const cpu = s.cpuUs !== undefined ? `   server CPU ${fmt(s.cpuUs)} µs per ${c.unit.replace(/s$/, "")}` : "";
    const failures = s.failed > 0 ? `   !! ${fmt(s.failed)} failed answers` : "";
    console.log(`  ${c.label.padEnd(44)} ${fmt(s.rate).padStart(8)} ${c.unit}/s   (min ${fmt(s.min)}, max ${fmt(s.max)})${cpu}${failures}`);
  }
}

// ---- figures against targets ----

interface Figure {
  readonly figure: string;
  readonly value: string;
  readonly target: string;
  readonly met: boolean;
  /** Failed answers behind the figure: a figure with any is not met. */
  readonly failed: number;
}

const figures: Figure[] = [];

function judge(figure: string, value: string, target: string, met: boolean, failed: number): void {
  figures.push({ figure, value, target, met: met && failed === 0, failed });
}

function printSummaryTable(): void {
  const rows = figures.map((f) => [
    f.figure,
    f.value,
    f.target,
    f.met ? "met" : f.failed > 0 ? `MISSED (${fmt(f.failed)} failed answers)` : "MISSED",
  ]);
  const header = ["figure", "value", "target", "result"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join("   ")}`.trimEnd();
  console.log(`\nsummary`);
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

// ---- main ----

async function main(): Promise<void> {
  const cpuList = cpus();
  const started = Date.now();
  const uses = (...scenarios: Scenario[]) => scenarios.some((s) => ONLY.has(s));
  console.log("roundtrip-mcp HTTP benchmark: the performance targets over loopback");
  console.log(`  machine: ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? "unknown"}), ${process.platform}/${process.arch}`);
  console.log(
    `  node ${process.version}; autocannon, ${CONNECTIONS} connections; ${TRIALS} trial(s) of ${SECONDS} s per server and scenario after ${WARMUP} s warm-up`,
  );
  console.log(`  scenarios: ${[...ONLY].join(", ")}`);
  console.log(
    pinning
      ? `  CPU pinning (taskset): load generator on CPU ${pinning.generator}, every server on CPU ${pinning.servers} (BENCH_PIN=off to turn it off)`
      : "  CPU pinning: off (BENCH_PIN=off, no taskset, or fewer than 2 CPUs)",
  );
  if (CPU_PROF_DIR) console.log(`  app servers run under --cpu-prof, profiles in ${CPU_PROF_DIR}`);
  console.log(`  node flags of every server: ${NODE_FLAGS.length > 0 ? NODE_FLAGS.join(" ") : "none (BENCH_NODE_FLAGS)"}`);

  // Started one after another so the 1,000-component bootstrap does not compete with the others.
  const start = async (spec: ServerSpec) => {
    const server = await startServer(spec);
    console.log(`  started ${spec.label.padEnd(26)} pid ${server.child.pid}  ${server.url}`);
    return server;
  };
  const small = uses("plain", "elicitation", "state", "memory", "ratelimit") ? await start(SMALL) : undefined;
  const limited = uses("ratelimit") ? await start(RATE_LIMITED) : undefined;
  const large = uses("plain", "list") ? await start(LARGE) : undefined;
  const sdk = uses("plain") ? await start(SDK) : undefined;
  const before = BASELINE && uses("plain", "elicitation", "state") ? await start(BASELINE) : undefined;
  if (before) console.log(`  before: the build in ${BASELINE_DIR} (BENCH_BASELINE)`);

  // Pre-flight: every exchange once, every check; the small app's answers are what the ceiling replays.
  const calls = [
    { scenario: "plain", exchange: PLAIN },
    { scenario: "elicitation", exchange: ELICITATION },
    { scenario: "state", exchange: SEALED_STATE },
  ] as const;
  const recorded = new Map<Exchange, RecordedExchange>();
  for (const { scenario, exchange } of calls) {
    if (small && (ONLY.has(scenario) || (exchange === PLAIN && ONLY.has("memory"))))
      recorded.set(exchange, await preflight(small.spec.label, small.url, exchange));
  }
  if (large && uses("plain")) await preflight(large.spec.label, large.url, PLAIN);
  if (large && uses("list")) LIST.recorded = (await preflight(large.spec.label, large.url, LIST)).final.body;
  if (sdk) await preflight(sdk.spec.label, sdk.url, PLAIN);
  if (before) for (const { scenario, exchange } of calls) if (ONLY.has(scenario)) await preflight(before.spec.label, before.url, exchange);
  if (limited) {
    await preflight(limited.spec.label, limited.url, PLAIN);
    if (!ONLY.has("plain") && !ONLY.has("memory")) await preflight(small!.spec.label, small!.url, PLAIN);
  }
  // The memory scenario needs the ceiling's plain answer too: its RSS is printed beside the app's.
  const replayed = calls.filter((c) => ONLY.has(c.scenario) || (c.exchange === PLAIN && ONLY.has("memory")));
  const ceiling = replayed.length > 0 ? await start(ceilingSpec(replayed.map((c) => recorded.get(c.exchange)!))) : undefined;
  for (const { exchange } of replayed) await preflight(ceiling!.spec.label, ceiling!.url, exchange);
  console.log("  pre-flight: every server answered every exchange of its scenarios as it should");
  if (ONLY.has("memory"))
    for (const server of [small!, ceiling!])
      console.log(`  ${server.spec.label}: ${describeMemory(await server.command("memory"))} after start-up and pre-flight`);

  const contestants: Contestant[] = [];
  if (ONLY.has("plain")) contestants.push(...[small!, large!, ceiling!, sdk!].map((s) => contestant("plain", s, PLAIN)));
  if (ONLY.has("elicitation"))
    contestants.push(contestant("elicitation", small!, ELICITATION), contestant("elicitation", ceiling!, ELICITATION));
  if (ONLY.has("state")) contestants.push(contestant("state", small!, SEALED_STATE), contestant("state", ceiling!, SEALED_STATE));
  if (ONLY.has("list")) contestants.push(contestant("list", large!, LIST));
  if (ONLY.has("ratelimit")) contestants.push(contestant("ratelimit", limited!, PLAIN), contestant("ratelimit", small!, PLAIN));
  // The build before runs each scenario right after this one's app: the pair's trials are back to back.
  if (before)
    for (const { scenario, exchange } of calls)
      if (ONLY.has(scenario))
        contestants.splice(
          contestants.findIndex((c) => c.scenario === scenario && c.server === small) + 1,
          0,
          contestant(scenario, before, exchange),
        );

  if (WARMUP > 0) {
    console.log(`\nwarm-up (${WARMUP} s each)`);
    const warmups = contestants.map((c) => ({ label: c.label, unit: c.unit, server: c.server, exchange: c.exchange }));
    if (ONLY.has("memory") && !ONLY.has("plain"))
      warmups.push({ label: `memory: ${small!.spec.label}`, unit: "calls", server: small!, exchange: PLAIN });
    for (const w of warmups)
      console.log(describeTrial(w.label, "warm-up", w.unit, await measure(w.server, w.exchange, CONNECTIONS, { seconds: WARMUP })));
  }

  if (contestants.length > 0) {
    console.log(`\ntrials (alternating)`);
    for (let round = 1; round <= TRIALS; round++) {
      for (const c of contestants) {
        const t = await measure(c.server, c.exchange, CONNECTIONS, { seconds: SECONDS });
        c.trials.push(t);
        console.log(describeTrial(c.label, `${round}/${TRIALS}`, c.unit, t));
      }
    }
    printResults(contestants);
  }
  judgeTrials(contestants, { small, large, ceiling, sdk });
  if (before) compareWithBefore(contestants, small!, before);
  if (ONLY.has("ratelimit")) rateLimitCost(contestants, limited!, small!);
  if (ONLY.has("memory")) await memory(small!, ceiling!);
  if (ONLY.has("ratelimit")) await rateLimitMemory(limited!, small!);

  printSummaryTable();
  const missed = figures.filter((f) => !f.met).length;
  console.log(
    missed === 0 ? "\nall targets met" : `\n${missed} target(s) MISSED (the benchmark exits 0; the figures above are the result)`,
  );
  console.log(`total time ${fmt((Date.now() - started) / 1000, 1)} s`);
}

/** The median of a's rate over b's within each round: their trials ran back to back, so the machine's slow drift cancels. */
function withinRounds(a: Contestant, b: Contestant): number {
  return median(a.trials.map((trial, i) => trial.rate / b.trials[i]!.rate));
}

/**
 * This build against the one before (BENCH_BASELINE), per scenario: calls or round trips per
 * second, server CPU per call, and the median of the ratios within each round (whose trials ran
 * back to back). Printed, not judged: a change is "unchanged" when all three stay near 1.
 */
function compareWithBefore(contestants: Contestant[], now: RunningServer, before: RunningServer): void {
  console.log(`\nnow / before (${BASELINE_DIR}), app of 3 components; above 1 is faster now`);
  for (const scenario of ["plain", "elicitation", "state"] as const) {
    const [a, b] = [now, before].map((server) => contestants.find((c) => c.scenario === scenario && c.server === server));
    if (a === undefined || b === undefined) continue;
    const [x, y] = [summarize(a), summarize(b)];
    const byCpu = x.cpuUs !== undefined && y.cpuUs !== undefined ? (y.cpuUs / x.cpuUs).toFixed(3) : "n/a";
    const perRound = withinRounds(a, b).toFixed(3);
    const failures = x.failed + y.failed > 0 ? `   !! ${fmt(x.failed + y.failed)} failed answers` : "";
    console.log(
      `  ${scenario.padEnd(12)} ${(x.rate / y.rate).toFixed(3)} (${fmt(x.rate)} vs ${fmt(y.rate)} ${a.unit}/s); ` +
        `by server CPU ${byCpu} (${fmt(x.cpuUs ?? NaN)} vs ${fmt(y.cpuUs ?? NaN)} µs); median within rounds ${perRound}${failures}`,
    );
  }
}

/** The figures of the trials against their targets (the memory figures are judged in `memory`). */
function judgeTrials(contestants: Contestant[], servers: Record<"small" | "large" | "ceiling" | "sdk", RunningServer | undefined>): void {
  const { small, large, ceiling, sdk } = servers;
  const contestantOf = (scenario: Scenario, server: RunningServer | undefined) =>
    contestants.find((c) => c.scenario === scenario && c.server === server)!;
  const find = (scenario: Scenario, server: RunningServer | undefined) => summarize(contestantOf(scenario, server));
  const paired = (scenario: Scenario, a: RunningServer | undefined, b: RunningServer | undefined) =>
    withinRounds(contestantOf(scenario, a), contestantOf(scenario, b)).toFixed(3);

  if (ONLY.has("plain")) {
    const [s, l, c, k] = [find("plain", small), find("plain", large), find("plain", ceiling), find("plain", sdk)];
    judge(
      "plain tools/call: 3 components / ceiling",
      `${(s.rate / c.rate).toFixed(3)} (${fmt(s.rate)} vs ${fmt(c.rate)} calls/s)`,
      `>= ${TARGET.smallOverCeiling}`,
      s.rate / c.rate >= TARGET.smallOverCeiling,
      s.failed + c.failed,
    );
    judge(
      "plain tools/call: 1,000 components / 3",
      `${(l.rate / s.rate).toFixed(3)} (${fmt(l.rate)} calls/s)`,
      `>= ${TARGET.largeOverSmall}`,
      l.rate / s.rate >= TARGET.largeOverSmall,
      l.failed + s.failed,
    );
    console.log(
      `\n  (not judged: 3 components / sdk-only ${(s.rate / k.rate).toFixed(3)} = the framework's own cost beside the SDK's path; ` +
        `sdk-only / ceiling ${(k.rate / c.rate).toFixed(3)} = the most a framework on the SDK's HTTP entry could reach)`,
    );
    if (s.cpuUs !== undefined && l.cpuUs !== undefined && c.cpuUs !== undefined) {
      // Server CPU per call moves less than calls/s when other work shares the machine.
      console.log(
        `  (not judged, from server CPU per call: 3/ceiling ${(c.cpuUs / s.cpuUs).toFixed(3)}, 1,000/3 ${(s.cpuUs / l.cpuUs).toFixed(3)})`,
      );
    }
    console.log(
      `  (not judged, medians of the ratios within each round: 3/ceiling ${paired("plain", small, ceiling)}, 1,000/3 ${paired("plain", large, small)})`,
    );
  }
  for (const [scenario, name] of [
    ["elicitation", "elicitation round trips"],
    ["state", "sealed-state round trips"],
  ] as const) {
    if (!ONLY.has(scenario)) continue;
    const [app, c] = [find(scenario, small), find(scenario, ceiling)];
    judge(
      `${name}: app / ceiling`,
      `${(app.rate / c.rate).toFixed(3)} (${fmt(app.rate)} vs ${fmt(c.rate)} round trips/s)`,
      `>= ${TARGET.roundTripOverCeiling}`,
      app.rate / c.rate >= TARGET.roundTripOverCeiling,
      app.failed + c.failed,
    );
    if (app.cpuUs !== undefined && c.cpuUs !== undefined)
      console.log(`  (not judged, ${name} from server CPU per round trip: app/ceiling ${(c.cpuUs / app.cpuUs).toFixed(3)})`);
    console.log(`  (not judged, ${name}: median of the ratios within each round, app/ceiling ${paired(scenario, small, ceiling)})`);
  }
  if (ONLY.has("list")) {
    const l = find("list", large);
    const bytes = Buffer.byteLength(LIST.recorded!);
    const ms = l.cpuUs === undefined ? undefined : l.cpuUs / 1000;
    judge(
      `${LIST.label}: server CPU per call`,
      ms === undefined ? "unavailable (no /proc)" : `${fmt(ms, 3)} ms (${fmt(l.rate)} calls/s, ${fmt(bytes)}-byte response)`,
      `< ${TARGET.listCpuMs} ms`,
      ms !== undefined && ms < TARGET.listCpuMs,
      l.failed,
    );
  }
}

/** RSS and what of it is the V8 heap's own sizing (committed young and old generation), in MB. */
function describeMemory(usage: Record<string, unknown>): string {
  const mb = (bytes: unknown) => fmt(Number(bytes) / MB, 1);
  const spaces = (usage.spaces ?? {}) as Record<string, number>;
  return (
    `RSS ${mb(usage.rss)} MB (V8 heap committed ${mb(usage.heapTotal)}: young ${mb(spaces.new_space)}, old ${mb(spaces.old_space)}; ` +
    `used ${mb(usage.heapUsed)}; outside the heap ${mb(Number(usage.rss) - Number(usage.heapTotal))})`
  );
}

/** Plain calls to `server` until it has served `requests` in this run, sampling its memory every RSS_SAMPLE_EVERY. */
async function topUp(server: RunningServer, requests: number): Promise<number> {
  let failed = 0;
  while (server.responses < requests) {
    const before = server.responses;
    const chunk = Math.min(RSS_SAMPLE_EVERY, requests - server.responses);
    const more = await measure(server, PLAIN, CONNECTIONS, { amount: chunk });
    failed += more.failed;
    if (server.responses === before) throw new Error(`${server.spec.label}: no answers while topping up to ${fmt(requests)} requests`);
    console.log(
      `  ${fmt(server.responses).padStart(8)} requests ${server.spec.label.padEnd(26)} ${describeMemory(await server.command("memory"))}, ${fmt(more.rate)} calls/s` +
        (more.problems.length > 0 ? `   !! ${more.problems.join(", ")}` : ""),
    );
  }
  return failed;
}

/**
 * RSS once the app has served RSS_AFTER_REQUESTS requests, sampled on the way (a retention grows
 * with requests; V8's own sizing levels off), beside the ceiling's after as many: the bare
 * node:http process is the floor any server on this machine starts from. Then allocation per plain
 * call: after the RSS, because the GCProfiler that counts it keeps about 2 MB of native memory per
 * trial of 3 s in the server's process (malloc'd, not given back), which is the probe's, not the app's.
 */
async function memory(app: RunningServer, ceiling: RunningServer): Promise<void> {
  console.log(`\nmemory (${app.spec.label}, plain tools/call)`);
  const failed = await topUp(app, RSS_AFTER_REQUESTS);
  const usage = await app.command("memory");
  const rss = Number(usage.rss);
  // The reference serves at least as many requests as the app has.
  await topUp(ceiling, app.responses);
  const floor = Number((await ceiling.command("memory")).rss);
  console.log(
    `  after ${fmt(app.responses)} requests: ${app.spec.label} ${describeMemory(usage)}; ` +
      `${ceiling.spec.label} RSS ${fmt(floor / MB, 1)} MB after ${fmt(ceiling.responses)} (the app's own: ${fmt((rss - floor) / MB, 1)} MB)`,
  );
  judge(
    `RSS after ${fmt(app.responses)} requests, 3 components`,
    `${fmt(rss / MB, 1)} MB (ceiling ${fmt(floor / MB, 1)} MB)`,
    `<= ${TARGET.rssMb} MB`,
    rss <= TARGET.rssMb * MB,
    failed,
  );

  await app.command("alloc-start");
  const t = await measure(app, PLAIN, CONNECTIONS, { seconds: SECONDS });
  const counted = await app.command("alloc-stop");
  console.log(describeTrial(`memory: ${app.spec.label}`, "alloc", "calls", t));
  const allocated = Number(counted.allocatedBytes);
  if (!Number.isFinite(allocated) || t.responses === 0)
    throw new Error(`${app.spec.label}: no allocation figure (${JSON.stringify(counted)}, ${t.responses} responses)`);
  const perCall = allocated / t.responses;
  console.log(
    `  allocated ${fmt(allocated / MB, 1)} MB on the V8 heap over ${fmt(t.responses)} requests (${fmt(Number(counted.collections))} collections): ${fmt(perCall / KB, 1)} KB per request`,
  );
  judge(
    "allocation per plain call, 3 components",
    `${fmt(perCall / KB, 1)} KB`,
    `<= ${TARGET.allocationKb} KB`,
    perCall <= TARGET.allocationKb * KB,
    t.failed,
  );
}

/** What rate limits cost a plain call: the rate-limited app beside the same app without them (not judged). */
function rateLimitCost(contestants: Contestant[], limited: RunningServer, plain: RunningServer): void {
  const [l, p] = [limited, plain].map((server) => contestants.find((c) => c.scenario === "ratelimit" && c.server === server)!);
  const [ls, ps] = [summarize(l!), summarize(p!)];
  const cpu =
    ls.cpuUs !== undefined && ps.cpuUs !== undefined
      ? `; server CPU ${fmt(ls.cpuUs)} against ${fmt(ps.cpuUs)} µs per call (${fmt(ls.cpuUs - ps.cpuUs, 1)} µs for the limit)`
      : "";
  console.log(
    `\n  (not judged, ratelimit: rate-limited / plain ${(ls.rate / ps.rate).toFixed(3)} (${fmt(ls.rate)} vs ${fmt(ps.rate)} calls/s)${cpu})`,
  );
}

/**
 * The rate-limited app's memory after RSS_AFTER_REQUESTS requests, sampled on the way (the old
 * generation is where a table rebuilt per call and promoted would pile up), beside the same app
 * without rate limits after as many.
 */
async function rateLimitMemory(limited: RunningServer, plain: RunningServer): Promise<void> {
  console.log(`\nratelimit memory (${limited.spec.label}, plain tools/call)`);
  const failed = await topUp(limited, RSS_AFTER_REQUESTS);
  const usage = await limited.command("memory");
  await topUp(plain, limited.responses);
  const without = await plain.command("memory");
  const old = (u: Record<string, unknown>) => Number((u.spaces as Record<string, number> | undefined)?.old_space ?? NaN);
  console.log(
    `  after ${fmt(limited.responses)} requests: old generation ${fmt(old(usage) / MB, 1)} MB, RSS ${fmt(Number(usage.rss) / MB, 1)} MB; ` +
      `without rate limits after ${fmt(plain.responses)}: old generation ${fmt(old(without) / MB, 1)} MB, RSS ${fmt(Number(without.rss) / MB, 1)} MB`,
  );
  judge(
    `RSS after ${fmt(limited.responses)} rate-limited requests, ${fmt(RATE_LIMIT_CALLERS)} callers`,
    `${fmt(Number(usage.rss) / MB, 1)} MB (old generation ${fmt(old(usage) / MB, 1)} MB; without rate limits ${fmt(Number(without.rss) / MB, 1)} MB, ${fmt(old(without) / MB, 1)} MB)`,
    `<= ${TARGET.rssMb} MB`,
    Number(usage.rss) <= TARGET.rssMb * MB,
    failed,
  );
}

let exiting = false;
async function finish(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  await stopAllServers();
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
