// What the paged-list benchmarks share (bench:lists, bench:skills): the server's CPU per request of
// a run done by several walkers at once, and the printed figures of first and later pages beside
// the target and a plain call measured the same way.
import { processCpuSeconds } from "./bench-process";
import { fmt, median } from "./bench-load";

/** Server CPU milliseconds per request of `run` (`requests` requests), done `walks` times by each of `concurrency` walkers. */
export async function cpuPerRequest(
  pid: number | undefined,
  concurrency: number,
  walks: number,
  requests: number,
  run: () => Promise<void>,
) {
  const before = processCpuSeconds(pid)!;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let w = 0; w < walks; w++) await run();
    }),
  );
  return ((processCpuSeconds(pid)! - before) * 1000) / (requests * walks * concurrency);
}

/** Prints the figures: the medians and ranges of first pages, later pages and the reference calls, and each page's size. */
export function printPages(
  title: string,
  figures: { first: number[]; later: number[]; calls: number[]; sizes: number[]; targetMs: number },
) {
  const { first, later, calls, sizes, targetMs } = figures;
  const verdict = (ms: number) => (ms < targetMs ? "met" : "MISSED");
  const range = (xs: number[]) => `${fmt(Math.min(...xs), 3)}..${fmt(Math.max(...xs), 3)}`;
  console.log(title);
  console.log(
    `  first page (no cursor):      ${fmt(median(first), 3)} ms [${range(first)}]  target < ${targetMs} ms: ${verdict(median(first))}`,
  );
  console.log(
    `  later pages (cursor opened): ${fmt(median(later), 3)} ms [${range(later)}]  target < ${targetMs} ms: ${verdict(median(later))}`,
  );
  console.log(`  reference, plain tools/call: ${fmt(median(calls), 3)} ms [${range(calls)}]`);
  console.log(`  page sizes: ${sizes.map((s) => fmt(s)).join(", ")} bytes`);
}
