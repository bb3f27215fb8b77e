// A slice of the fuzz sweep (the whole sweep is `npm run fuzz`, test/fuzz/run-fuzz.ts): 150
// mutated requests of every method, seeded, against an HTTP listener, a stdio child process and
// an in-process connection each. Pins that none of them gets a -32603, a 5xx, a body or line that
// is not a valid JSON-RPC message (and valid against the 2026-07-28 schema), or no answer.
import { sweepAll, total } from "../fuzz/fuzz-sweep";

describe("fuzz sweep, a slice", () => {
  it("answers 150 mutated requests per boundary without an internal error, a 5xx, an invalid body or a hang", async () => {
    const reports = await sweepAll({ seed: 7, perTarget: 150, seconds: 60, answerTimeoutMs: 10_000 });
    for (const report of reports)
      expect({ target: report.target, examples: report.examples }).toEqual({ target: report.target, examples: [] });
    const sum = total(reports);
    expect(sum).toEqual({ sent: expect.any(Number), internalErrors: 0, serverErrors: 0, invalidMessages: 0, hangs: 0 });
    // Cases whose text is not JSON cannot travel in memory: the in-process share is a little smaller.
    expect(sum.sent).toBeGreaterThan(400);
  });
});
