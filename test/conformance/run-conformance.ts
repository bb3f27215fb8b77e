/**
 * Runs the official MCP conformance suite (pinned in ./package.json) against the fixture server.
 *
 *   npx ts-node --transpile-only test/conformance/run-conformance.ts [--output-dir DIR]
 *
 * 1. installs ./node_modules with `npm ci` when it is missing or older than the lock file;
 * 2. starts the fixture server (env CONFORMANCE_SERVER_CMD, default
 *    `node dist/sample/conformance/main-http.js`, with PORT=0) and waits for the first stdout
 *    line holding its URL;
 * 3. runs the suite with the Node 22 binary from ./node_modules/node:
 *    `server --url http://localhost:PORT/mcp --requirements 2026-07-28 -o DIR`, then each extension
 *    scenario no requirement set lists (`EXTENSION_SCENARIOS`, SEP-2640's skills) with
 *    `--scenario NAME --spec-version REV --force -o DIR`;
 * 4. stops the server (SIGTERM, SIGKILL after 5 s), prints a recap and a verdict, and exits 0
 *    only when the runner exited 0 AND every scored scenario and every scenario in
 *    `requiredUnscored(requirements)` (read-checks.ts) is present, ran checks, and has no FAILURE or WARNING,
 *    and every extension scenario ran checks that all passed (no SKIPPED either, but the ones
 *    `ALLOWED_SKIPS` names for the revision).
 *    Otherwise it exits 1; a harness failure (install, server start) exits with 2.
 *
 * This is the only place the suite is installed and run: `npm test` never downloads anything.
 *
 * Environment: CONFORMANCE_SERVER_CMD, CONFORMANCE_OUTPUT_DIR (default ./results),
 * CONFORMANCE_REQUIREMENTS (default 2026-07-28).
 * DIR also receives runner.log and server.log; earlier scenario runs in DIR are removed first.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import {
  CONFORMANCE_DIR,
  EXTENSION_SCENARIOS,
  SUITE_PACKAGE_DIR,
  describeProblems,
  extensionVerdict,
  parseRunDir,
  readChecks,
  requiredUnscored,
  verdict,
} from "./read-checks";

export const REPO_ROOT = path.resolve(CONFORMANCE_DIR, "..", "..");
export const DEFAULT_SERVER_CMD = "node dist/sample/conformance/main-http.js";
export const DEFAULT_OUTPUT_DIR = path.join(CONFORMANCE_DIR, "results");
const NODE22 = path.join(CONFORMANCE_DIR, "node_modules", "node", "bin", process.platform === "win32" ? "node.exe" : "node");
const STAMP = path.join(CONFORMANCE_DIR, "node_modules", ".roundtrip-install-stamp");
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const HARNESS_FAILURE = 2;

export interface RunOptions {
  serverCmd: string;
  outDir: string;
  requirements: string;
}

export interface RunOutcome {
  /** The runner's own exit code. */
  exitCode: number;
  /** Why the run does not pass this project's bar (empty when it does). */
  problems: string[];
  outDir: string;
  url: string;
  durationMs: number;
}

/** Thrown for everything that is the harness's problem rather than a conformance result. */
export class HarnessError extends Error {
  override name = "HarnessError";
}

function installFingerprint(): string {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(fs.readFileSync(path.join(CONFORMANCE_DIR, file)));
  return hash.digest("hex");
}

function runnerEntry(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(SUITE_PACKAGE_DIR, "package.json"), "utf8")) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin.conformance;
  if (bin === undefined)
    throw new Error(`${SUITE_PACKAGE_DIR}/package.json names no "conformance" bin: reinstall the suite (npm ci in test/conformance)`);
  return path.join(SUITE_PACKAGE_DIR, bin);
}

function installIsCurrent(): boolean {
  try {
    return fs.readFileSync(STAMP, "utf8") === installFingerprint() && fs.existsSync(NODE22) && fs.existsSync(runnerEntry());
  } catch {
    return false;
  }
}

/** `npm ci` in test/conformance unless the stamp written by the last successful install matches. */
export function ensureInstalled(): void {
  if (installIsCurrent()) return;
  process.stderr.write(`[conformance] installing the pinned suite (npm ci in ${CONFORMANCE_DIR}) ...\n`);
  const npm = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: CONFORMANCE_DIR,
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  if (npm.error || npm.status !== 0) {
    throw new HarnessError(
      `npm ci failed in ${CONFORMANCE_DIR} (exit ${npm.status ?? npm.error?.message}):\n${npm.stdout ?? ""}${npm.stderr ?? ""}`,
    );
  }
  const version = spawnSync(NODE22, ["--version"], { encoding: "utf8" });
  const major = Number(/^v(\d+)\./.exec(version.stdout ?? "")?.[1]);
  if (!(major >= 22)) {
    throw new HarnessError(`after npm ci, ${NODE22} is not a Node >= 22 binary (got: ${version.stdout || version.error})`);
  }
  if (!fs.existsSync(runnerEntry())) throw new HarnessError(`after npm ci, the runner ${runnerEntry()} is missing`);
  fs.writeFileSync(STAMP, installFingerprint());
}

/** Removes earlier scenario runs and logs from outDir, nothing else. */
function clearOutput(outDir: string): void {
  fs.mkdirSync(outDir, { recursive: true });
  for (const entry of fs.readdirSync(outDir)) {
    if (parseRunDir(entry) || entry === "runner.log" || entry === "server.log") {
      fs.rmSync(path.join(outDir, entry), { recursive: true, force: true });
    }
  }
}

interface StartedServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  hasExited: () => boolean;
}

function startServer(cmd: string, log: fs.WriteStream): Promise<StartedServer> {
  const child = spawn(cmd, {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: "0" },
    shell: true,
    // Own process group, so stopping it also stops what the shell started.
    detached: process.platform !== "win32",
    stdio: ["ignore", "pipe", "pipe"],
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      done = true;
      resolve(code ?? (signal ? 128 : null));
    }),
  );
  const recent: string[] = [];
  const remember = (line: string) => {
    log.write(`${line}\n`);
    recent.push(line);
    if (recent.length > 40) recent.shift();
  };
  readline.createInterface({ input: child.stderr! }).on("line", remember);
  const stdout = readline.createInterface({ input: child.stdout! });

  return new Promise<StartedServer>((resolve, reject) => {
    let settled = false;
    const failStart = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopProcess(child, exited, () => done).finally(() =>
        reject(new HarnessError(`${why}\ncommand: ${cmd} (cwd ${REPO_ROOT})\nlast output:\n${recent.join("\n")}`)),
      );
    };
    const timer = setTimeout(() => failStart(`fixture server printed no URL within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    let ready = false;
    stdout.on("line", (line) => {
      remember(line);
      const match = ready ? null : /https?:\/\/[^\s]+/.exec(line);
      if (!match) return;
      ready = true;
      clearTimeout(timer);
      let printed: URL;
      try {
        printed = new URL(match[0]);
      } catch {
        return failStart(`fixture server printed an unparsable URL: ${match[0]}`);
      }
      if (!printed.port) return failStart(`fixture server URL has no port: ${match[0]}`);
      settled = true;
      // The suite must reach it as localhost (the DNS-rebinding scenario depends on it).
      const pathname = printed.pathname === "/" ? "/mcp" : printed.pathname;
      resolve({ child, url: `http://localhost:${printed.port}${pathname}`, exited, hasExited: () => done });
    });
    child.once("error", (e) => failStart(`fixture server could not be started: ${e.message}`));
    void exited.then((code) => {
      if (!ready) failStart(`fixture server exited with code ${code} before printing its URL`);
    });
  });
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (process.platform !== "win32" && child.pid !== undefined) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // already gone
  }
}

/** SIGTERM, then SIGKILL after the grace period. */
async function stopProcess(child: ChildProcess, exited: Promise<unknown>, hasExited: () => boolean): Promise<void> {
  if (hasExited()) return;
  signal(child, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), STOP_GRACE_MS)));
  const outcome = await Promise.race([exited, graceOver]);
  clearTimeout(timer);
  if (outcome === "timeout") {
    signal(child, "SIGKILL");
    await exited;
  }
}

/**
 * The runner's arguments: the requirement set, or one extension scenario at the revision's wire
 * (`--force`: the runner would otherwise skip an extension scenario at a dated revision).
 */
function runnerArgs(url: string, options: RunOptions, scenario?: string): string[] {
  const selection =
    scenario === undefined
      ? ["--requirements", options.requirements]
      : ["--scenario", scenario, "--spec-version", options.requirements, "--force"];
  return [runnerEntry(), "server", "--url", url, ...selection, "-o", options.outDir];
}

function runRunner(
  url: string,
  options: RunOptions,
  log: fs.WriteStream,
  scenario?: string,
): { child: ChildProcess; exited: Promise<number> } {
  const args = runnerArgs(url, options, scenario);
  log.write(`$ ${NODE22} ${args.join(" ")}\n`);
  const child = spawn(NODE22, args, { cwd: CONFORMANCE_DIR, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    log.write(chunk);
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    log.write(chunk);
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", (e) => reject(new HarnessError(`conformance runner could not be started: ${e.message}`)));
    child.once("exit", (code, sig) => resolve(code ?? (sig ? 128 : 1)));
  });
  return { child, exited };
}

function printRecap(options: RunOptions, outcome: Omit<RunOutcome, "problems">, serverDiedEarly: boolean): string[] {
  let problems: string[] = [];
  const lines = [`\n=== roundtrip-mcp conformance recap (${options.requirements}) ===`];
  lines.push(`runner exit code ${outcome.exitCode}, ${(outcome.durationMs / 1000).toFixed(1)} s, results in ${outcome.outDir}`);
  if (serverDiedEarly) lines.push("the fixture server exited during the run; see server.log");
  try {
    const report = readChecks(options.outDir, options.requirements);
    const scored = report.scenarios.filter((s) => s.scored);
    const clean = scored.filter((s) => s.failures.length === 0 && s.warnings.length === 0);
    lines.push(`scored: ${clean.length}/${report.requirements.server.length} clean, ${scored.length} present`);
    if (report.missingScored.length) lines.push(`missing scored scenarios: ${report.missingScored.join(", ")}`);
    for (const category of ["scored", "pending"]) {
      const listed = describeProblems(report.scenarios.filter((s) => s.category === category));
      if (listed.length) lines.push(`${category} FAILURE/WARNING:`, ...listed.map((p) => `  ${p}`));
    }
    const requiredNames = requiredUnscored(options.requirements);
    const required = report.scenarios.filter(
      (s) => requiredNames.includes(s.scenario) && s.checks.length > 0 && s.failures.length === 0 && s.warnings.length === 0,
    );
    lines.push(`required unscored (${requiredNames.join(", ")}): ${required.length}/${requiredNames.length} clean`);
    const unscored = report.scenarios.filter((s) => !s.scored && s.category !== "pending");
    const unscoredBad = unscored.filter((s) => s.failures.length > 0);
    lines.push(
      `not scored (${unscored
        .map((s) => s.category)
        .filter((c, i, a) => a.indexOf(c) === i)
        .join(", ")}): ${unscoredBad.length}/${unscored.length} with failures`,
    );
    const extensionProblems = extensionVerdict(report, options.requirements);
    lines.push(
      `extension scenarios (${EXTENSION_SCENARIOS.join(", ")}): ${EXTENSION_SCENARIOS.length - new Set(extensionProblems.map((p) => p.split(" ")[0])).size}/${EXTENSION_SCENARIOS.length} clean`,
    );
    problems = [...verdict(report, requiredNames), ...extensionProblems];
  } catch (e) {
    problems = [`could not read results: ${(e as Error).message}`];
  }
  if (outcome.exitCode !== 0) problems.unshift(`the runner exited with code ${outcome.exitCode}`);
  if (serverDiedEarly) problems.push("the fixture server exited during the run");
  lines.push(problems.length === 0 ? "verdict: PASS" : `verdict: FAIL\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return problems;
}

/** Runs install, server, suite and teardown; resolves with the runner's exit code. */
export async function runConformance(partial: Partial<RunOptions> = {}): Promise<RunOutcome> {
  const options: RunOptions = {
    serverCmd: partial.serverCmd ?? process.env.CONFORMANCE_SERVER_CMD ?? DEFAULT_SERVER_CMD,
    outDir: path.resolve(partial.outDir ?? process.env.CONFORMANCE_OUTPUT_DIR ?? DEFAULT_OUTPUT_DIR),
    requirements: partial.requirements ?? process.env.CONFORMANCE_REQUIREMENTS ?? "2026-07-28",
  };
  if (options.serverCmd === DEFAULT_SERVER_CMD && !fs.existsSync(path.join(REPO_ROOT, "dist/sample/conformance/main-http.js"))) {
    throw new HarnessError(
      `the fixture server is not built: ${path.join(REPO_ROOT, "dist/sample/conformance/main-http.js")} is missing; run npm run build first`,
    );
  }
  ensureInstalled();
  clearOutput(options.outDir);
  const serverLog = fs.createWriteStream(path.join(options.outDir, "server.log"));
  const runnerLog = fs.createWriteStream(path.join(options.outDir, "runner.log"));
  const started = Date.now();
  const server = await startServer(options.serverCmd, serverLog);
  process.stderr.write(`[conformance] fixture server ready at ${server.url}\n`);
  const stopServer = () => stopProcess(server.child, server.exited, server.hasExited);
  const onSignal = () => {
    void stopServer().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const runner = runRunner(server.url, options, runnerLog);
    let exitCode = await runner.exited;
    // The extension scenarios no requirement set lists, one run each (their verdict: extensionVerdict).
    for (const scenario of EXTENSION_SCENARIOS) {
      const code = await runRunner(server.url, options, runnerLog, scenario).exited;
      if (code !== 0 && exitCode === 0) exitCode = code;
    }
    const serverDiedEarly = server.hasExited();
    await stopServer();
    const outcome = { exitCode, outDir: options.outDir, url: server.url, durationMs: Date.now() - started };
    const problems = printRecap(options, outcome, serverDiedEarly);
    return { ...outcome, problems };
  } finally {
    await stopServer();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await Promise.all([serverLog, runnerLog].map((s) => new Promise((resolve) => s.end(resolve))));
  }
}

function parseArgs(argv: string[]): Partial<RunOptions> {
  const options: Partial<RunOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-o" || arg === "--output-dir") options.outDir = argv[++i];
    else if (arg === "--server-cmd") options.serverCmd = argv[++i];
    else if (arg === "--requirements") options.requirements = argv[++i];
    else throw new HarnessError(`unknown argument ${arg} (known: --output-dir DIR, --server-cmd CMD, --requirements REV)`);
  }
  return options;
}

if (require.main === module) {
  runConformance(parseArgs(process.argv.slice(2))).then(
    (outcome) => process.exit(outcome.problems.length === 0 ? 0 : 1),
    (error: Error) => {
      process.stderr.write(`[conformance] ${error instanceof HarnessError ? error.message : error.stack}\n`);
      process.exit(HARNESS_FAILURE);
    },
  );
}
