// Pins how refused requestState tokens are logged (src/state/rejection-log.ts), so that a flood of
// forged tokens cannot flood the log:
// - through a StateSealer, 2,000 forged tokens write one warning per reason and interval, not
//   2,000; every rejection still has its own debug line with the same message and fields;
// - the first rejection of each reason in an interval is a warning in full, even amid a flood of
//   another reason;
// - the rejections not warned about are counted, and the counts are one warning when the interval
//   ends: on the next rejection after it, or by a timer when nothing else arrives;
// - a clock that goes backwards starts a new interval rather than silencing the log.
import { MemoryLogger } from "../../../src/testing/index";
import { RejectionLog } from "../../../src/state/rejection-log";
import { StateSealer } from "../../../src/state/state-sealer";
import type { StateBinding } from "../../../src/protocol/request-context";

const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "pay", arguments: {} } };
const warnings = (logger: MemoryLogger) => logger.entries.filter((e) => e.level === "warn");

describe("rejection logging", () => {
  afterEach(() => jest.useRealTimers());

  it("writes one warning per reason for 2,000 forged tokens through a sealer", () => {
    const logger = new MemoryLogger();
    let now = Date.UTC(2026, 6, 28);
    const sealer = new StateSealer({ secret: "s".repeat(40), now: () => now }, logger);
    const token = sealer.seal({ step: 1 }, CTX, { principal: null });
    const forged = `${token.slice(0, -2)}AA`;
    let refused = 0;
    for (let i = 0; i < 2_000; i++) {
      try {
        sealer.open(forged, CTX, { principal: null });
      } catch {
        refused++;
      }
    }
    expect(refused).toBe(2_000);
    expect(() => sealer.open("garbage", CTX, { principal: null })).toThrow();
    expect(warnings(logger)).toEqual([
      { level: "warn", message: "requestState rejected", fields: { reason: "bad-mac", method: "tools/call" } },
      { level: "warn", message: "requestState rejected", fields: { reason: "malformed", method: "tools/call" } },
    ]);
    expect(logger.entries.filter((e) => e.level === "debug" && e.message === "requestState rejected")).toHaveLength(1_999);
    now += 60_000;
    expect(() => sealer.open(forged, CTX, { principal: null })).toThrow();
    expect(warnings(logger).slice(2)).toEqual([
      { level: "warn", message: "requestState rejections suppressed", fields: { counts: { "bad-mac": 1_999 }, intervalMs: 60_000 } },
      { level: "warn", message: "requestState rejected", fields: { reason: "bad-mac", method: "tools/call" } },
    ]);
  });

  it("logs the counts with a timer when nothing else arrives", () => {
    jest.useFakeTimers();
    const logger = new MemoryLogger();
    const log = new RejectionLog(logger, () => 1_000, 60_000);
    log.record("expired", { method: "tools/call" });
    log.record("expired", { method: "tools/call" });
    log.record("expired", { method: "tools/call" });
    expect(warnings(logger)).toHaveLength(1);
    jest.advanceTimersByTime(60_000);
    expect(warnings(logger)[1]).toEqual({
      level: "warn",
      message: "requestState rejections suppressed",
      fields: { counts: { expired: 2 }, intervalMs: 60_000 },
    });
  });

  it("starts a new interval when the clock goes backwards", () => {
    const logger = new MemoryLogger();
    let now = 500_000;
    const log = new RejectionLog(logger, () => now, 60_000);
    log.record("expired", {});
    now = 100_000;
    log.record("expired", {});
    expect(warnings(logger).map((e) => e.message)).toEqual(["requestState rejected", "requestState rejected"]);
  });
});
