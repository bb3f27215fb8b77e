/*
 * Dispatcher throughput (not a test): `dispatcher.handle` in-process, no transport, for
 *   - a plain `tools/call` of a tool taking a small DTO (two @IsInt() numbers), with params the
 *     request owns (`exclusive`: frozen in place) and with params it shares (copied first),
 *   - an elicitation round trip: the call answered `input_required` (one @Elicit DTO question,
 *     sealed requestState), then the retry carrying the answer and the state, answered complete,
 * against `JSON.parse` of the same request bodies measured in the same run (each call parses its
 * body, as a transport would, so every request owns fresh objects; the ratio is what to compare
 * across machines and runs).
 *
 *   npx ts-node --transpile-only test/bench/dispatch-bench.ts [trialMs] [trials]
 *
 * Cases are warmed up, then run for `trialMs` (default 1000) per trial, `trials` times (default
 * 5), interleaved per trial. Rates are per second of this process's CPU time (user + system) over
 * the trial, not of the wall clock, so that other work on a shared machine disturbs them less
 * (it still does: caches and cores are shared); the median is
 * printed with the range. To profile one case alone (BENCH_CASE=plain, shared or elicit), run it under
 * `node --cpu-prof -r ts-node/register/transpile-only`.
 *
 * `benchCases()` is exported so that a comparison script can run the cases of two checkouts in
 * one process, interleaved.
 */
import "reflect-metadata";
import { IsInt, IsString, Max, MaxLength, Min } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../src/features/built-in-features";
import { FeatureTable } from "../../src/features/feature-table";
import type { InboundRequest } from "../../src/protocol/inbound-request";
import type { JsonObject } from "../../src/protocol/wire-types";
import { Arg, Elicit, StateSealer, Tool } from "../../src/index";
import { SilentLogger } from "../../src/testing/index";

const TRIAL_MS = Number(process.argv[2] ?? 1000);
const TRIALS = Number(process.argv[3] ?? 5);
const WARMUP_MS = 1000;

class AddArgs {
  @IsInt() @Min(-1_000_000) @Max(1_000_000) a!: number;
  @IsInt() @Min(-1_000_000) @Max(1_000_000) b!: number;
}

class Contact {
  @IsString() @MaxLength(100) name!: string;
  @IsInt() @Min(0) @Max(150) age!: number;
}

class BenchTools {
  @Tool()
  add(@Arg() args: AddArgs) {
    return String(args.a + args.b);
  }

  @Tool()
  greet(@Elicit("contact", Contact, { message: "Who are you?" }) contact: Contact) {
    return `hello ${contact.name}`;
  }
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

function dispatcher(): Dispatcher {
  const child = container.createChildContainer();
  child.registerSingleton(BenchTools);
  const logger = new SilentLogger();
  return new Dispatcher({
    features: new FeatureTable(BUILT_IN_FEATURES, { components: [BenchTools], logger }),
    container: child,
    sealer: new StateSealer({ secret: "b".repeat(40) }, logger),
    logger,
  });
}

/**
 * A request as a transport hands it over: params parsed from the body, fresh for every call, and
 * `exclusive` (the dispatcher may freeze them in place) unless `shared` (it copies them).
 */
function inbound(body: string, shared = false): InboundRequest {
  const params = JSON.parse(body) as JsonObject;
  return {
    method: "tools/call",
    params,
    principal: "user-1",
    clientCapabilities: (params._meta as JsonObject)["io.modelcontextprotocol/clientCapabilities"] as JsonObject,
    protocolVersion: "2026-07-28",
    era: "modern",
    inputResponses: params.inputResponses,
    requestState: params.requestState,
    exclusive: !shared,
  };
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Runs `op` for about `ms` milliseconds (wall clock; `process.cpuUsage` is a system call, too
 * costly to poll) and returns operations per second of this process's CPU time over the run.
 */
export async function rate(op: () => Promise<unknown>, ms: number): Promise<number> {
  const limit = BigInt(ms) * 1_000_000n;
  const start = process.hrtime.bigint();
  const cpu = cpuMicros();
  let count = 0;
  do {
    for (let i = 0; i < 16; i++) await op();
    count += 16;
  } while (process.hrtime.bigint() - start < limit);
  return (count * 1e6) / (cpuMicros() - cpu);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The benchmark's cases by name, each checked once (a wrong answer throws before anything is timed). */
export async function benchCases(): Promise<Record<string, () => Promise<unknown>>> {
  const d = dispatcher();
  const plainBody = JSON.stringify({ _meta: META, name: "add", arguments: { a: 1, b: 2 } });
  const askBody = JSON.stringify({ _meta: META, name: "greet", arguments: {} });
  const first = await d.handle(inbound(askBody));
  if (first.resultType !== "input_required" || typeof first.requestState !== "string")
    throw new Error(`unexpected first round: ${JSON.stringify(first)}`);
  const answer = { contact: { action: "accept", content: { name: "Ana", age: 42 } } };
  // The retry as a client sends it: the same params, the answer and the state echoed.
  const retryBody = (state: string) =>
    JSON.stringify({ _meta: META, name: "greet", arguments: {}, inputResponses: answer, requestState: state });
  const check = (result: JsonObject, expected: string) => {
    const text = ((result.content as JsonObject[] | undefined)?.[0] as { text?: string } | undefined)?.text;
    if (result.resultType !== "complete" || text !== expected) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
  };
  check(await d.handle(inbound(plainBody)), "3");
  check(await d.handle(inbound(retryBody(first.requestState))), "hello Ana");

  return {
    "tools/call (plain)": async () => check(await d.handle(inbound(plainBody)), "3"),
    "tools/call (plain, params not exclusive)": async () => check(await d.handle(inbound(plainBody, true)), "3"),
    "elicitation round trip (2 calls)": async () => {
      const asked = await d.handle(inbound(askBody));
      check(await d.handle(inbound(retryBody(asked.requestState as string))), "hello Ana");
    },
    "reference: JSON.parse of those 3 bodies": async () => {
      inbound(plainBody);
      inbound(askBody);
      inbound(retryBody(first.requestState as string));
    },
  };
}

async function main(): Promise<void> {
  const cases = await benchCases();
  const only = process.env.BENCH_CASE;
  const names: Record<string, string> = {
    plain: "tools/call (plain)",
    shared: "tools/call (plain, params not exclusive)",
    elicit: "elicitation round trip (2 calls)",
  };
  const selected = Object.entries(cases).filter(([name]) => only === undefined || names[only] === name);
  for (const [, op] of selected) await rate(op, WARMUP_MS);
  const results = new Map<string, number[]>(selected.map(([name]) => [name, []]));
  for (let t = 0; t < TRIALS; t++) {
    for (const [name, op] of selected) results.get(name)!.push(await rate(op, TRIAL_MS));
  }
  console.log(`dispatcher.handle, node ${process.version}, ${TRIALS} trials of ${TRIAL_MS} ms (median per second of CPU, range)`);
  for (const [name, values] of results) {
    const m = median(values);
    console.log(
      `  ${name.padEnd(42)} ${Math.round(m).toString().padStart(8)} /s  (${Math.round(Math.min(...values))}..${Math.round(Math.max(...values))})  ${(1e6 / m).toFixed(1)} µs each`,
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
