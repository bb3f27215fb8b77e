/*
 * Behaviours pinned (test/conformance/read-checks.ts `verdict`, the bar `npm run conformance` holds a run to):
 * - a run passes only when every scored scenario and every required unscored one is present,
 *   ran at least one check, and has no FAILURE or WARNING;
 * - each problem is one line naming the scenario and its category;
 * - unscored scenarios outside the required list never fail the run;
 * - a 2025-11-25 run has its own required unscored set (no tasks extension in that revision).
 */
import {
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
