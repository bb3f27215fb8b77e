/*
 * Behaviours pinned (the official MCP conformance suite, 0.2.0-alpha.12, --requirements 2026-07-28,
 * run against the built fixture server by test/conformance/run-conformance.ts):
 * - the harness runs to the end: suite installed, fixture server started, all scenarios written;
 * - all 37 scored scenarios are present, and none of their checks is FAILURE or WARNING;
 * - the 3 pending scenarios (json-schema-2020-12, http-header-validation,
 *   http-custom-header-server-validation) are present and have no FAILURE or WARNING either;
 * - every scored scenario ran at least one check, and the runner exits 0.
 * The tasks-extension scenarios run but are not asserted (unscored; the framework has no tasks).
 *
 * Needs the build (`npm run build`: dist/sample/conformance/main-http.js) or
 * CONFORMANCE_SERVER_CMD; the first run also installs test/conformance/node_modules.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describeProblems, readChecks, type ConformanceReport } from "../conformance/read-checks";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const HARNESS = path.join(REPO_ROOT, "test", "conformance", "run-conformance.ts");
// npm ci on a cold machine downloads the Node 22 binary; a warm run takes about 10 s.
const RUN_TIMEOUT_MS = 180_000;
const EXPECTED_SCORED = 37;
const PENDING = ["json-schema-2020-12", "http-header-validation", "http-custom-header-server-validation"];

let outDir: string;
let harness: ChildProcess | undefined;
let exitCode: number | null = null;
let output = "";
let report: ConformanceReport | undefined;
let readError: unknown;

function tail(text: string, lines = 60): string {
  return text.split("\n").slice(-lines).join("\n");
}

/**
 * The parsed results of a complete run, or an error that says why there are none and shows
 * the harness output. Exit codes 0 and 1 come from the runner; anything else is the harness.
 */
function results(): ConformanceReport {
  if (report && (exitCode === 0 || exitCode === 1) && report.missingScored.length === 0) return report;
  const why = !report
    ? readError instanceof Error
      ? readError.message
      : String(readError)
    : report.missingScored.length > 0
      ? `${report.missingScored.length} scored scenarios have no checks.json`
      : "the harness did not finish the run";
  throw new Error(
    `the conformance harness produced no complete results (exit code ${exitCode}; ${why}).\n` +
      "Build first (npm run build) or set CONFORMANCE_SERVER_CMD; run `npm run conformance` to see the whole output.\n" +
      `--- harness output (tail) ---\n${tail(output)}`,
  );
}

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), "roundtrip-conformance-"));
  exitCode = await new Promise<number | null>((resolve) => {
    const child = (harness = spawn(
      process.execPath,
      [require.resolve("ts-node/dist/bin.js"), "--transpile-only", HARNESS, "--output-dir", outDir],
      { cwd: REPO_ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
    ));
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (e) => {
      output += `\nspawn failed: ${e.message}`;
      resolve(null);
    });
    child.on("close", (code) => resolve(code));
  });
  try {
    report = readChecks(outDir);
  } catch (e) {
    readError = e;
  }
}, RUN_TIMEOUT_MS);

afterAll(() => {
  // Only if beforeAll timed out: the harness stops its fixture server on SIGTERM.
  if (harness && harness.exitCode === null && harness.signalCode === null) harness.kill("SIGTERM");
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

describe("official MCP conformance suite, --requirements 2026-07-28", () => {
  it("runs every scored and pending scenario", () => {
    const r = results();
    expect(r.requirements.server).toHaveLength(EXPECTED_SCORED);
    expect(r.scenarios.filter((s) => s.scored)).toHaveLength(EXPECTED_SCORED);
    const pending = r.scenarios.filter((s) => s.category === "pending").map((s) => s.scenario);
    expect(pending.sort()).toEqual([...PENDING].sort());
  });

  it("has no FAILURE or WARNING in any scored scenario", () => {
    expect(describeProblems(results().scenarios.filter((s) => s.scored))).toEqual([]);
  });

  it("has no FAILURE or WARNING in the pending scenarios", () => {
    expect(describeProblems(results().scenarios.filter((s) => PENDING.includes(s.scenario)))).toEqual([]);
  });

  it("ran at least one check in every scored scenario", () => {
    const empty = results()
      .scenarios.filter((s) => s.scored && s.checks.length === 0)
      .map((s) => s.scenario);
    expect(empty).toEqual([]);
  });

  it("exits 0 (every scored check passed)", () => {
    results();
    if (exitCode !== 0) throw new Error(`runner exit code ${exitCode}\n--- harness output (tail) ---\n${tail(output)}`);
  });
});
