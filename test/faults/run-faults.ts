// The fault run (not a test; `npm run faults`, after a build): the tasks sample under the faults
// of issue 25, one scenario each (postgres, sqlite, sigterm, cap; FAULTS_ONLY picks some), each
// bounded in count and time, on loopback only. Prints per scenario and in total what must never
// happen (fault-tally.ts says exactly what each count means): crashes, hangs, dropped requests,
// -32603 answers, lost results and lost acknowledged tasks; then the notes (figures, failures an
// outage excuses) and the first counted failures. Exits 1 when any count is not zero or a
// scenario could not run. The figures come from FAULTS_* variables (fault-settings.ts).
import { connectionCapScenario } from "./connection-cap-scenario";
import { faultSettings } from "./fault-settings";
import { COUNTED, totalOf, type ScenarioReport } from "./fault-tally";
import { postgresScenario } from "./postgres-scenario";
import { sigtermScenario } from "./sigterm-scenario";
import { sqliteScenario } from "./sqlite-scenario";

const SCENARIOS: Record<string, (settings: ReturnType<typeof faultSettings>) => Promise<ScenarioReport>> = {
  postgres: postgresScenario,
  sqlite: sqliteScenario,
  sigterm: sigtermScenario,
  cap: connectionCapScenario,
};

const HEADINGS: Record<(typeof COUNTED)[number], string> = {
  crashes: "crashes",
  hangs: "hangs",
  dropped: "dropped",
  internalErrors: "-32603",
  lostResults: "lost results",
  lostTasks: "lost tasks",
};

async function main(): Promise<void> {
  const settings = faultSettings();
  console.log(`fault run: ${settings.only.join(", ")}`);
  const reports: ScenarioReport[] = [];
  const broken: string[] = [];
  for (const name of settings.only) {
    const started = Date.now();
    process.stdout.write(`${name}: running\n`);
    try {
      const report = await SCENARIOS[name]!(settings);
      reports.push(report);
      process.stdout.write(`${name}: done in ${report.seconds.toFixed(1)} s\n`);
    } catch (error) {
      broken.push(
        `${name}: could not run (${((Date.now() - started) / 1000).toFixed(1)} s): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const sum = totalOf(reports);
  const rows = [...reports, { scenario: "total", ...sum }];
  console.log("");
  console.log(
    [
      "scenario".padEnd(10),
      "requests".padStart(8),
      ...COUNTED.map((k) => HEADINGS[k].padStart(HEADINGS[k].length)),
      "seconds".padStart(7),
    ].join("  "),
  );
  for (const r of rows) {
    console.log(
      [
        r.scenario.padEnd(10),
        String(r.requests).padStart(8),
        ...COUNTED.map((k) => String(r[k]).padStart(HEADINGS[k].length)),
        r.seconds.toFixed(1).padStart(7),
      ].join("  "),
    );
  }
  for (const r of reports) {
    for (const note of r.notes) console.log(`  ${r.scenario}: ${note}`);
  }
  for (const r of reports) {
    for (const example of r.examples) console.log(`  ${r.scenario} ${example}`);
  }
  for (const line of broken) console.log(line);
  const clean = broken.length === 0 && COUNTED.every((k) => sum[k] === 0);
  console.log(clean ? "verdict: clean" : "verdict: FAILED");
  process.exit(clean ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
