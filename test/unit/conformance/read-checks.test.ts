/*
 * Behaviours pinned (test/conformance/read-checks.ts `verdict`, the bar `npm run conformance` holds a run to):
 * - a run passes only when every scored scenario and every required unscored one is present,
 *   ran at least one check, and has no FAILURE or WARNING;
 * - each problem is one line naming the scenario and its category;
 * - unscored scenarios outside the required list never fail the run;
 * - a 2025-11-25 run has its own required unscored set (no tasks extension in that revision);
 * - the extension scenarios (SEP-2640's skills) must each be present and run checks that all
 *   pass: a SKIPPED check fails them too (an undeclared extension skips every check), except the
 *   caching checks the runner itself skips on 2025-11-25.
 */
import {
  EXTENSION_SCENARIOS,
  extensionVerdict,
  requiredUnscored,
  verdict,
  type ConformanceCheck,
  type ConformanceReport,
  type ScenarioChecks,
} from "../../conformance/read-checks";

function scenario(name: string, category: string, statuses: string[]): ScenarioChecks {
  const checks: ConformanceCheck[] = statuses.map((status, i) => ({ id: `${name}-${i}`, status, errorMessage: `${status} here` }));
  return {
    scenario: name,
    scored: category === "scored",
    category,
    dir: `/tmp/${name}`,
    checks,
    failures: checks.filter((c) => c.status === "FAILURE"),
    warnings: checks.filter((c) => c.status === "WARNING"),
  };
}

function report(scenarios: ScenarioChecks[], missingScored: string[] = []): ConformanceReport {
  return {
    outDir: "/tmp",
    requirements: { revision: "2026-07-28", server: scenarios.filter((s) => s.scored).map((s) => s.scenario), notScored: [] },
    scenarios,
    summary: [],
    missingScored,
  };
}

describe("conformance verdict", () => {
  it("passes a clean run and ignores unscored scenarios outside the required list", () => {
    const r = report([
      scenario("a", "scored", ["SUCCESS"]),
      scenario("p", "pending", ["SUCCESS"]),
      scenario("t", "extension", ["FAILURE"]),
    ]);
    expect(verdict(r, ["p"])).toEqual([]);
  });

  it("names a FAILURE or WARNING in a scored or required scenario", () => {
    const r = report([scenario("a", "scored", ["SUCCESS", "WARNING"]), scenario("p", "pending", ["FAILURE"])]);
    expect(verdict(r, ["p"])).toEqual(["a [scored] WARNING a-1: WARNING here", "p [pending] FAILURE p-0: FAILURE here"]);
  });

  it("names missing scenarios and scenarios that ran no check", () => {
    const r = report([scenario("a", "scored", [])], ["b"]);
    expect(verdict(r, ["p"])).toEqual(["b [scored]: no checks.json", "p [required]: no checks.json", "a [scored]: ran no check"]);
  });
});

describe("requiredUnscored", () => {
  it("holds a 2025-11-25 run to its own unscored set, not to the tasks extension's", () => {
    expect(requiredUnscored("2025-11-25")).toEqual(["json-schema-2020-12", "server-session-lifecycle", "server-sse-polling"]);
    expect(requiredUnscored("2026-07-28")).toContain("tasks-lifecycle");
  });
});

describe("extensionVerdict", () => {
  const all = (statuses: string[]) => EXTENSION_SCENARIOS.map((name) => scenario(name, "unlisted", statuses));

  it("passes when every extension scenario ran checks that all succeeded", () => {
    expect(extensionVerdict(report(all(["SUCCESS", "SUCCESS"])), "2026-07-28")).toEqual([]);
  });

  it("fails a skipped, failed or warned check, a scenario with no checks, and a missing one", () => {
    const [enumeration, manifest, directory] = EXTENSION_SCENARIOS;
    const scenarios = [scenario(enumeration!, "unlisted", ["SUCCESS", "SKIPPED"]), scenario(manifest!, "unlisted", ["WARNING", "FAILURE"])];
    expect(extensionVerdict(report(scenarios), "2026-07-28")).toEqual([
      `${enumeration} [extension] SKIPPED ${enumeration}-1: SKIPPED here`,
      `${manifest} [extension] WARNING ${manifest}-0: WARNING here`,
      `${manifest} [extension] FAILURE ${manifest}-1: FAILURE here`,
      `${directory} [extension]: no checks.json`,
    ]);
    expect(extensionVerdict(report(all([])), "2026-07-28")).toEqual(EXTENSION_SCENARIOS.map((n) => `${n} [extension]: ran no check`));
  });

  it("allows on 2025-11-25 only the caching checks the runner skips there", () => {
    const skipped = (id: string) => ({ ...scenario(EXTENSION_SCENARIOS[0]!, "unlisted", []), checks: [{ id, status: "SKIPPED" }] });
    const cache = report([skipped("sep-2640-skills-list-cache-attributes"), ...all(["SUCCESS"]).slice(1)]);
    expect(extensionVerdict(cache, "2025-11-25")).toEqual([]);
    expect(extensionVerdict(cache, "2026-07-28")).toHaveLength(1);
    const other = report([skipped("sep-2640-skills-get-implemented"), ...all(["SUCCESS"]).slice(1)]);
    expect(extensionVerdict(other, "2025-11-25")).toEqual([
      `${EXTENSION_SCENARIOS[0]} [extension] SKIPPED sep-2640-skills-get-implemented: `,
    ]);
  });
});
