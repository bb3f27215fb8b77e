// Pins that a plain tools/call over listen() leaves nothing of itself for the young generation's
// collections to keep: with requests answered one after another, what each scavenge promotes to the
// old generation stays near zero (a request's objects die young). Before the fix, an object spread
// then given a property in the HTTP answerer (`{ ...facts, rawParams }`) kept every request's objects
// alive through the scavenges on Node 20 (~150 bytes a call promoted, the old generation growing
// until a full collection: issue 24's RSS). Measured with v8.GCProfiler in a child process of its own
// (test/e2e/fixtures/plain-call-survival.ts, compiled: run `npm run build` first), so the heap other
// test files leave in a jest worker cannot count; real HTTP on 127.0.0.1.
import { execFile } from "node:child_process";
import * as path from "node:path";

const FIXTURE = path.resolve(__dirname, "../../../../dist/test/e2e/fixtures/plain-call-survival.js");

interface Survival {
  readonly first: string;
  readonly requests: number;
  readonly scavenges: number;
  readonly promoted: number;
}

function measure(): Promise<Survival> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [FIXTURE], { timeout: 50_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${FIXTURE} failed (run npm run build first): ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as Survival);
    });
  });
}

describe("a plain call's objects die young", () => {
  it("promotes almost nothing per request to the old generation", async () => {
    const { first, requests, scavenges, promoted } = await measure();
    expect(first).toContain('"sum":3');
    expect(scavenges).toBeGreaterThan(3);
    // Four requests in flight (and the client's own objects) may be caught by a scavenge: a few KB each
    // time, about 30 bytes a request here; the spread of the bug promoted about 150.
    expect(promoted / requests).toBeLessThan(75);
  }, 60_000);
});
