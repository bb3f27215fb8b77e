/*
 * Pins how StateSealer.open reads rt1 tokens, the format sealed before rt2, during a rolling
 * upgrade (tokens live at most 900 s; seal writes rt3 only; rt2: state-sealer-rt2.test.ts):
 * - tokens sealed by the previous release (fixtures below, made by its sealer) open for the same
 *   request and principal, named or anonymous, with the data they carry;
 * - they fail as they always did: another request (other-request), another principal
 *   (other-principal), after expiry (expired), a lifetime over the ttl given to open, a flipped
 *   MAC (bad-mac), a key no longer in the ring (unknown-key), a payload version 2 under an rt1
 *   prefix (version-mismatch);
 * - an rt1 token checks its lifetime before its binding (an expired token for another request is
 *   `expired`), while rt3 binds in the MAC (the same case is `other-request`);
 * - opening an rt1 token costs its three HMACs.
 */
import nodeCrypto = require("node:crypto");
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

const SECRET_A = "tamper-test-secret-A-0123456789abcdefghijklmnop";
const NOW = 1_750_000_000_000;
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "pay", arguments: { amount: 12, payee: "PARAM-PAYEE" } } };
const OTHER: StateBinding = {
  requestMethod: "tools/call",
  requestParams: { name: "pay", arguments: { amount: 13, payee: "PARAM-PAYEE" } },
};
const DATA = { carried: "DATA-VALUE", step: 1 };

// Sealed by the previous release (commit 9930485) with key { id: "A", secret: SECRET_A } at NOW,
// for CTX and DATA: for principal "PRINCIPAL-carol" (ttl 300), and anonymous with ttl 900.
const RT1_CAROL =
  "rt1.A.WzEsMTc1MDAwMDAwMCwxNzUwMDAwMzAwLCJIb0N5Q3F5RjhWSE9SSWFoT3g0Z0thR1I4S0I2RDd0QTU0T0tsdUQwUUY4LjB2TzZpcS1ZdndKZWt4TGpDWjlDSkZxNHl4ZXlRaTVWV2NCY1VCMTVVVEUiLHsiY2FycmllZCI6IkRBVEEtVkFMVUUiLCJzdGVwIjoxfV0.LAOf6nIELsIVHGx4m0EZ9Jbp9tKE4WPa6tkxngCDAkY";
const RT1_ANONYMOUS =
  "rt1.A.WzEsMTc1MDAwMDAwMCwxNzUwMDAwOTAwLCJIb0N5Q3F5RjhWSE9SSWFoT3g0Z0thR1I4S0I2RDd0QTU0T0tsdUQwUUY4LkdENWozbXVIc1RVZjNzNVNURERJT2kwekxtOGo4RG43aVpYVnoyWE91R0kiLHsiY2FycmllZCI6IkRBVEEtVkFMVUUiLCJzdGVwIjoxfV0.ZQggrlvWCUxKoAEC5w94psMaBW72NqzbEa1TeqM6KjU";

function makeSealer(
  keys = [
    { id: "B", secret: "legacy-test-secret-B-0123456789abcdefghijklm" },
    { id: "A", secret: SECRET_A },
  ],
) {
  const clock = { ms: NOW };
  const logger = new MemoryLogger();
  return { sealer: new StateSealer({ keys, now: () => clock.ms }, logger), logger, clock };
}

function reasonOf(logger: MemoryLogger, open: () => unknown): unknown {
  rejectionOf(open);
  return logger.entries[logger.entries.length - 1]?.fields?.reason;
}

describe("StateSealer reading rt1 tokens", () => {
  it("opens tokens sealed by the previous release, named and anonymous", () => {
    const { sealer, logger } = makeSealer();
    expect(sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" })).toEqual(DATA);
    expect(sealer.open(RT1_ANONYMOUS, CTX, { principal: null, ttl: 900 })).toEqual(DATA);
    expect(logger.entries).toEqual([]);
  });

  it("seals rt3 only", () => {
    const { sealer } = makeSealer([{ id: "A", secret: SECRET_A }]);
    expect(sealer.seal(DATA, CTX, { principal: "PRINCIPAL-carol" })).toMatch(/^rt3\.A\./);
  });

  it("refuses them for another request or principal", () => {
    const { sealer, logger } = makeSealer();
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, OTHER, { principal: "PRINCIPAL-carol" }))).toBe("other-request");
    expect(
      reasonOf(logger, () =>
        sealer.open(RT1_CAROL, { requestMethod: "prompts/get", requestParams: CTX.requestParams }, { principal: "PRINCIPAL-carol" }),
      ),
    ).toBe("other-request");
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-dave" }))).toBe("other-principal");
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, CTX, { principal: null }))).toBe("other-principal");
    expect(reasonOf(logger, () => sealer.open(RT1_ANONYMOUS, CTX, { principal: "PRINCIPAL-carol", ttl: 900 }))).toBe("other-principal");
  });

  it("refuses them once expired, or when they live longer than the ttl given to open", () => {
    const { sealer, logger, clock } = makeSealer();
    expect(reasonOf(logger, () => sealer.open(RT1_ANONYMOUS, CTX, { principal: null }))).toBe("lifetime-exceeds-ttl");
    clock.ms = NOW + 299_999;
    expect(sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" })).toEqual(DATA);
    clock.ms = NOW + 300_000;
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" }))).toBe("expired");
  });

  it("refuses them tampered, or with their key gone", () => {
    const { sealer, logger } = makeSealer();
    const last = RT1_CAROL[RT1_CAROL.length - 1];
    const flipped = RT1_CAROL.slice(0, -1) + (last === "A" ? "B" : "A");
    expect(reasonOf(logger, () => sealer.open(flipped, CTX, { principal: "PRINCIPAL-carol" }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(`${RT1_CAROL}~`, CTX, { principal: "PRINCIPAL-carol" }))).toBe("malformed");
    const { sealer: rotated, logger: rotatedLog } = makeSealer([{ id: "B", secret: "legacy-test-secret-B-0123456789abcdefghijklm" }]);
    expect(reasonOf(rotatedLog, () => rotated.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" }))).toBe("unknown-key");
  });

  it("checks an rt1 token's lifetime before its binding, and an rt3 token's binding first", () => {
    const { sealer, logger, clock } = makeSealer([{ id: "A", secret: SECRET_A }]);
    const rt3 = sealer.seal(DATA, CTX, { principal: "PRINCIPAL-carol" });
    clock.ms = NOW + 300_000;
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, OTHER, { principal: "PRINCIPAL-carol" }))).toBe("expired");
    expect(reasonOf(logger, () => sealer.open(rt3, OTHER, { principal: "PRINCIPAL-carol" }))).toBe("other-request");
    expect(reasonOf(logger, () => sealer.open(rt3, CTX, { principal: "PRINCIPAL-carol" }))).toBe("expired");
  });

  it("costs the three HMACs of the rt1 format to open one", () => {
    const { sealer } = makeSealer();
    const hmac = jest.spyOn(nodeCrypto, "createHmac");
    try {
      expect(sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" })).toEqual(DATA);
      expect(hmac).toHaveBeenCalledTimes(3);
    } finally {
      jest.restoreAllMocks();
    }
  });
});
