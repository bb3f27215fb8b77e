// Memory figures a benchmark server reports about itself, asked by one command per line on stdin
// and answered with one JSON line on stdout (after the URL line every server prints first):
//   alloc-start   starts counting the bytes allocated on the V8 heap   -> {"started":true}
//   alloc-stop    stops counting                                        -> {"allocatedBytes":n,"collections":n}
//   memory        the process's memory now -> {"rss":n,"heapTotal":n,"heapUsed":n,"external":n,"arrayBuffers":n,
//                 "spaces":{<V8 heap space>: committed bytes}}
//   snapshot <p>  writes a V8 heap snapshot to the file p (a full collection first) -> {"file":p}
// Anything else is answered with {"error":"..."}. Allocation is counted with v8.GCProfiler (see
// heap-allocation.ts), which records the used heap before and after every collection.
import { createInterface } from "node:readline";
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from "node:v8";
import { allocatedBytes } from "./heap-allocation";

export function answerMemoryProbes(): void {
  let counting: { profiler: GCProfiler; startUsed: number } | undefined;
  const answer = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`);
  createInterface({ input: process.stdin }).on("line", (line) => {
    const command = line.trim();
    if (command === "alloc-start") {
      counting?.profiler.stop();
      const profiler = new GCProfiler();
      // Read the start after the profiler runs, so no collection falls between the two.
      profiler.start();
      counting = { profiler, startUsed: getHeapStatistics().used_heap_size };
      answer({ started: true });
    } else if (command === "alloc-stop") {
      if (!counting) {
        answer({ error: "alloc-stop without alloc-start" });
        return;
      }
      const endUsed = getHeapStatistics().used_heap_size;
      const result = counting.profiler.stop();
      const collections = result.statistics.map((s) => ({
        before: s.beforeGC.heapStatistics.usedHeapSize,
        after: s.afterGC.heapStatistics.usedHeapSize,
      }));
      answer({ allocatedBytes: allocatedBytes(counting.startUsed, collections, endUsed), collections: collections.length });
      counting = undefined;
    } else if (command === "memory") {
      const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
      // Committed bytes per V8 heap space: what of the RSS is the heap's own sizing.
      const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size]));
      answer({ rss, heapTotal, heapUsed, external, arrayBuffers, spaces });
    } else if (command.startsWith("snapshot ")) {
      answer({ file: writeHeapSnapshot(command.slice("snapshot ".length).trim()) });
    } else {
      answer({ error: `unknown command ${JSON.stringify(command)}` });
    }
  });
}
