/**
 * Reads what the official conformance runner wrote with `-o DIR` and says, per scenario,
 * whether it counts.
 *
 * Output layout (0.2.0-alpha.12): one directory per scenario run,
 * `DIR/server-<scenario>-<ISO time with ':' and '.' as '-'>/checks.json`, holding an array
 * of checks `{id, name, description, status, timestamp, errorMessage?, specReferences, details?}`.
 * Status is one of SUCCESS, FAILURE, WARNING, SKIPPED, INFO.
 *
 * checks.json does not say whether a scenario is scored. The suite's frozen requirement
 * file does: `requirements/<revision>.yaml` in the installed package lists the scored
 * `server:` scenarios and a `not_scored:` list with a reason (`pending`, `extension`,
 * `added-after-release`). That file is read here, with the suite's own `yaml` dependency.
 *
 * @example const report = readChecks("test/conformance/results");
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";

export const CONFORMANCE_DIR = __dirname;
export const SUITE_PACKAGE_DIR = path.join(CONFORMANCE_DIR, "node_modules", "@modelcontextprotocol", "conformance");
export const DEFAULT_REVISION = "2026-07-28";

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

/** One entry of checks.json. */
export interface ConformanceCheck {
  id: string;
  name?: string;
  description?: string;
  status: CheckStatus | string;
  timestamp?: string;
  errorMessage?: string;
  specReferences?: { id: string; url?: string }[];
  details?: unknown;
}

/** `scored`, or the requirement file's reason for not scoring it; `unlisted` if absent there. */
export type ScenarioCategory = "scored" | "pending" | "extension" | "added-after-release" | "unlisted" | string;

export interface ScenarioChecks {
  scenario: string;
  scored: boolean;
  category: ScenarioCategory;
  /** Directory the checks came from (the newest run of this scenario in the output dir). */
  dir: string;
  checks: ConformanceCheck[];
  failures: ConformanceCheck[];
  warnings: ConformanceCheck[];
}

export interface ScenarioSummary {
  scenario: string;
  scored: boolean;
  category: ScenarioCategory;
  failures: number;
  warnings: number;
}

export interface Requirements {
  revision: string;
  /** Scenarios the revision requires of a server (the scored set). */
  server: string[];
  /** Server scenarios that are run and reported but never scored, with the reason. */
  notScored: { scenario: string; reason: string; note?: string }[];
}

export interface ConformanceReport {
  outDir: string;
  requirements: Requirements;
  scenarios: ScenarioChecks[];
  summary: ScenarioSummary[];
  /** Scored scenarios the requirement file lists but the output dir lacks. */
  missingScored: string[];
}

const RUN_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;

/** Splits a run directory name into scenario and timestamp; undefined for anything else. */
export function parseRunDir(name: string): { scenario: string; stamp: string } | undefined {
  const m = RUN_DIR.exec(name);
  return m ? { scenario: m[1]!, stamp: m[2]! } : undefined; // both groups are not optional
}

/** Reads the suite's frozen requirement file for `revision` (server leg only). */
export function readRequirements(revision = DEFAULT_REVISION): Requirements {
  const file = path.join(SUITE_PACKAGE_DIR, "requirements", `${revision}.yaml`);
  if (!fs.existsSync(file)) {
    throw new Error(`conformance requirement file not found: ${file} (run npm ci in ${CONFORMANCE_DIR})`);
  }
  const suiteRequire = createRequire(path.join(SUITE_PACKAGE_DIR, "package.json"));
  const yaml = suiteRequire("yaml") as { parse(text: string): unknown };
  const doc = yaml.parse(fs.readFileSync(file, "utf8")) as {
    server?: string[];
    not_scored?: { scenario: string; leg: string; reason: string; note?: string }[];
  };
  if (!Array.isArray(doc.server) || !Array.isArray(doc.not_scored)) {
    throw new Error(`unexpected layout in ${file}: expected 'server' and 'not_scored' lists`);
  }
  return {
    revision,
    server: doc.server,
    notScored: doc.not_scored
      .filter((e) => e.leg === "server")
      .map((e) => ({ scenario: e.scenario, reason: e.reason, note: e.note?.trim() })),
  };
}

/** Reads every checks.json under `outDir`; a scenario run more than once counts by its newest run. */
export function readChecks(outDir: string, revision = DEFAULT_REVISION): ConformanceReport {
  if (!fs.existsSync(outDir)) throw new Error(`conformance output dir not found: ${outDir}`);
  const requirements = readRequirements(revision);
  const scored = new Set(requirements.server);
  const reasons = new Map(requirements.notScored.map((e) => [e.scenario, e.reason]));

  const newest = new Map<string, { dir: string; stamp: string }>();
  for (const entry of fs.readdirSync(outDir, { withFileTypes: true })) {
    const run = entry.isDirectory() ? parseRunDir(entry.name) : undefined;
    if (!run || !fs.existsSync(path.join(outDir, entry.name, "checks.json"))) continue;
    const seen = newest.get(run.scenario);
    if (!seen || seen.stamp < run.stamp) newest.set(run.scenario, { dir: path.join(outDir, entry.name), stamp: run.stamp });
  }

  const scenarios = [...newest.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, { dir }]): ScenarioChecks => {
      const file = path.join(dir, "checks.json");
      const checks = JSON.parse(fs.readFileSync(file, "utf8")) as ConformanceCheck[];
      if (!Array.isArray(checks)) throw new Error(`${file} is not an array of checks`);
      const category = scored.has(scenario) ? "scored" : (reasons.get(scenario) ?? "unlisted");
      return {
        scenario,
        scored: category === "scored",
        category,
        dir,
        checks,
        failures: checks.filter((c) => c.status === "FAILURE"),
        warnings: checks.filter((c) => c.status === "WARNING"),
      };
    });

  return {
    outDir,
    requirements,
    scenarios,
    summary: scenarios.map((s) => ({
      scenario: s.scenario,
      scored: s.scored,
      category: s.category,
      failures: s.failures.length,
      warnings: s.warnings.length,
    })),
    missingScored: requirements.server.filter((name) => !newest.has(name)),
  };
}

/** One line per FAILURE / WARNING of the given scenarios, with the runner's error message. */
export function describeProblems(scenarios: readonly ScenarioChecks[]): string[] {
  return scenarios.flatMap((s) =>
    [...s.failures, ...s.warnings].map(
      (c) => `${s.scenario} [${s.category}] ${c.status} ${c.id}: ${(c.errorMessage ?? c.description ?? "").trim()}`,
    ),
  );
}

/**
 * Unscored scenarios this project holds to the same bar as the scored ones: every one must be
 * present and free of FAILURE and WARNING. The tasks extension's scenarios are all of them but
 * tasks-status-notifications, which the runner itself always skips (awaiting a harness rewrite).
 */
export const REQUIRED_UNSCORED: readonly string[] = Object.freeze([
  "json-schema-2020-12",
  "http-header-validation",
  "http-custom-header-server-validation",
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
]);

/**
 * The unscored scenarios held to the scored bar under the 2025-11-25 requirement set: the
 * session-lifecycle scenario (added after that release), JSON Schema 2020-12 and SSE polling
 * (SEP-1699, pending).
 */
export const REQUIRED_UNSCORED_2025: readonly string[] = Object.freeze([
  "json-schema-2020-12",
  "server-session-lifecycle",
  "server-sse-polling",
]);

/**
 * Extension scenarios no requirement set lists (the runner runs them one by one with
 * `--scenario`): SEP-2640's skills scenarios. Each must run checks, and every check must pass: a
 * SKIPPED check counts against it too (the runner skips every check of a server that does not
 * declare the extension), except the ones `ALLOWED_SKIPS` names for a revision.
 */
export const EXTENSION_SCENARIOS: readonly string[] = Object.freeze([
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
]);

/**
 * Checks the runner itself skips on a revision, whatever the server does: on 2025-11-25 the
 * skills results' caching fields (ttlMs, cacheScope) are not defined.
 */
export const ALLOWED_SKIPS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "2025-11-25": ["sep-2640-skills-list-cache-attributes", "sep-2640-skills-get-cache-attributes"],
});

/** Every reason the extension scenarios of a run do not pass, one line each (empty when they pass). */
export function extensionVerdict(report: ConformanceReport, revision: string, names: readonly string[] = EXTENSION_SCENARIOS): string[] {
  const problems: string[] = [];
  const allowed = ALLOWED_SKIPS[revision] ?? [];
  const byName = new Map(report.scenarios.map((s) => [s.scenario, s]));
  for (const name of names) {
    const scenario = byName.get(name);
    if (scenario === undefined) {
      problems.push(`${name} [extension]: no checks.json`);
      continue;
    }
    if (scenario.checks.length === 0) problems.push(`${name} [extension]: ran no check`);
    for (const check of scenario.checks)
      if (check.status === "FAILURE" || check.status === "WARNING" || (check.status === "SKIPPED" && !allowed.includes(check.id)))
        problems.push(`${name} [extension] ${check.status} ${check.id}: ${(check.errorMessage ?? check.description ?? "").trim()}`);
  }
  return problems;
}

/** The unscored scenarios a run of `requirements` must pass too. */
export function requiredUnscored(requirements: string): readonly string[] {
  return requirements === "2025-11-25" ? REQUIRED_UNSCORED_2025 : REQUIRED_UNSCORED;
}

/**
 * Everything that keeps a run from passing, one line each (empty when it passes): a scored or
 * required scenario that is missing, has no checks, or has a FAILURE or WARNING.
 */
export function verdict(report: ConformanceReport, required: readonly string[] = REQUIRED_UNSCORED): string[] {
  const problems: string[] = [];
  const byName = new Map(report.scenarios.map((s) => [s.scenario, s]));
  for (const name of report.missingScored) problems.push(`${name} [scored]: no checks.json`);
  for (const name of required) if (!byName.has(name)) problems.push(`${name} [required]: no checks.json`);
  const held = report.scenarios.filter((s) => s.scored || required.includes(s.scenario));
  for (const s of held) if (s.checks.length === 0) problems.push(`${s.scenario} [${s.category}]: ran no check`);
  problems.push(...describeProblems(held));
  return problems;
}

if (require.main === module) {
  const report = readChecks(path.resolve(process.argv[2] ?? path.join(CONFORMANCE_DIR, "results")));
  for (const s of report.summary) {
    console.log(`${s.failures || s.warnings ? "✗" : "✓"} ${s.scenario} [${s.category}] failures=${s.failures} warnings=${s.warnings}`);
  }
  for (const line of describeProblems(report.scenarios)) console.log(line);
  if (report.missingScored.length) console.log(`missing scored scenarios: ${report.missingScored.join(", ")}`);
}
