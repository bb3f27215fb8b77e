// The fast lane's full differential run (not part of `npm test`, which runs a slice): the
// hand-written corpus and DIFF_GENERATED (default 2,000) generated requests per fixture app over
// HTTP, and DIFF_STDIO (default 400) per fixture over stdio, each sent once through the lane and
// once through the SDK path. Exit code 1 on any difference.
//
// Run: npm run test:differential   (env DIFF_SEED, DIFF_GENERATED, DIFF_STDIO)
import { runDifferential } from "../support/differential-run";

async function main(): Promise<void> {
  const seed = Number(process.env.DIFF_SEED ?? 20260728);
  const started = Date.now();
  const report = await runDifferential({
    httpGenerated: Number(process.env.DIFF_GENERATED ?? 2_000),
    stdioGenerated: Number(process.env.DIFF_STDIO ?? 400),
    seed,
    stdio: true,
  });
  for (const failure of report.failures.slice(0, 40)) console.log(failure);
  console.log(
    `\nfast lane differential, seed ${seed}: ${report.cases} cases (${Object.entries(report.byTransport)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ")})`,
  );
  console.log(`  over HTTP the lane took ${report.laneTaken} (${report.laneSettled} of them encoded by the SDK path)`);
  console.log(`  byte-equal before key sorting: ${report.byteEqual} of ${report.cases}`);
  console.log(
    `  ${report.cases - report.failures.length} passed, ${report.failures.length} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exit(report.failures.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
