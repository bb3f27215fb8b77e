// Pins: the fast lane answers exactly as the SDK path does. The hand-written corpus (every error
// class: -32020/-32021/-32022/-32600/-32601/-32602, 400/404/405/406/413/415, the request limits,
// every method of the feature, interactive and tasks fixtures) and a slice of the seeded generated
// requests give, through a listener with the lane and one without (one app), the same HTTP status,
// the same relevant headers and byte-equal JSON-RPC bodies; over stdio (two children, the lane on
// and off) the same lines. The lane takes a good share of them (the test cannot pass by handing
// everything over). The full run (5,000+ generated) is `npm run test:differential`.
import { runDifferential } from "../support/differential-run";

jest.setTimeout(180_000);

describe("fast lane differential (slice)", () => {
  it("answers the corpus and generated requests as the SDK path does, over HTTP and stdio", async () => {
    const report = await runDifferential({ httpGenerated: 50, stdioGenerated: 0, seed: 7, stdio: true });
    expect(report.failures).toEqual([]);
    expect(report.byteEqual).toBe(report.cases);
    expect(report.cases).toBeGreaterThan(600);
    expect(report.laneTaken).toBeGreaterThan(60);
    expect(report.laneSettled).toBeLessThan(report.laneTaken);
  });
});
