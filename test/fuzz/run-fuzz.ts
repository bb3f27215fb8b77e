// The fuzz sweep (not a test; `npm run fuzz`, after a build): mutated requests of every method
// against an HTTP listener, a stdio child process and an in-process connection, counting what must
// never happen: -32603 for anything a client sent, a 5xx, a body that is not a valid JSON-RPC
// message, a request never answered. Prints the counts per target and in all; exits 1 when any
// count is not zero, or when fewer requests than FUZZ_MIN were sent.
//
// Env: FUZZ_SEED (default 20260728), FUZZ_PER_TARGET (cases per target, default 8000),
//      FUZZ_SECONDS (time bound for the whole sweep, default 600), FUZZ_MIN (default 20000),
//      FUZZ_ANSWER_TIMEOUT_MS (how long one case may wait for its answer, default 10000).
import { sweepAll, total } from "./fuzz-sweep";

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`${name} must be a non-negative integer, got "${raw}"`);
    process.exit(1);
  }
  return value;
}

async function main(): Promise<void> {
  const seed = envNumber("FUZZ_SEED", 20260728);
  const perTarget = envNumber("FUZZ_PER_TARGET", 8000);
  const seconds = envNumber("FUZZ_SECONDS", 600);
  const minimum = envNumber("FUZZ_MIN", 20000);
  const answerTimeoutMs = envNumber("FUZZ_ANSWER_TIMEOUT_MS", 10000);
  console.log(`fuzz sweep: seed ${seed}, up to ${perTarget} cases per target, at most ${seconds} s`);
  const reports = await sweepAll({ seed, perTarget, seconds, answerTimeoutMs });
  const rows = [...reports, { target: "total", seconds: reports.reduce((s, r) => s + r.seconds, 0), examples: [], ...total(reports) }];
  console.log("");
  console.log("target       sent  -32603  5xx  invalid  hangs  seconds");
  for (const r of rows) {
    console.log(
      `${r.target.padEnd(10)} ${String(r.sent).padStart(6)}  ${String(r.internalErrors).padStart(6)}  ${String(r.serverErrors).padStart(3)}  ${String(r.invalidMessages).padStart(7)}  ${String(r.hangs).padStart(5)}  ${r.seconds.toFixed(1).padStart(7)}`,
    );
  }
  for (const r of reports) for (const example of r.examples) console.log(`  ${r.target}: ${example}`);
  const sum = total(reports);
  const clean = sum.internalErrors + sum.serverErrors + sum.invalidMessages + sum.hangs === 0;
  if (sum.sent < minimum) console.log(`only ${sum.sent} requests were sent, fewer than ${minimum}: raise FUZZ_SECONDS or FUZZ_PER_TARGET`);
  console.log(clean && sum.sent >= minimum ? "verdict: clean" : "verdict: FAILED");
  process.exit(clean && sum.sent >= minimum ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
