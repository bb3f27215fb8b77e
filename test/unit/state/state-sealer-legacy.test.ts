/*
 * Pins that StateSealer.open no longer reads rt1 tokens, the format sealed before rt2: no release
 * sealed them (0.1.0 sealed rt2), so no deployment has one in flight.
 * - tokens sealed by the rt1 sealer (fixtures below, made by it) are refused with the one -32602
 *   error and logged `unsupported-version`, for the request and principal they were sealed for,
 *   with their key still in the ring, within their lifetime; a tampered one is refused all the same;
 * - opening one computes no HMAC: it is refused at its prefix;
 * - the sealer seals rt3 only.
 */
import nodeCrypto = require("node:crypto");
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

const SECRET_A = "tamper-test-secret-A-0123456789abcdefghijklmnop";
const NOW = 1_750_000_000_000;
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "pay", arguments: { amount: 12, payee: "PARAM-PAYEE" } } };
const DATA = { carried: "DATA-VALUE", step: 1 };

// Sealed by the rt1 sealer (commit 9930485, before 0.1.0) with key { id: "A", secret: SECRET_A } at NOW,
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

describe("StateSealer and rt1 tokens", () => {
  it("refuses tokens sealed by the rt1 sealer, named and anonymous, as unsupported-version", () => {
    const { sealer, logger } = makeSealer();
    expect(reasonOf(logger, () => sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" }))).toBe("unsupported-version");
    expect(reasonOf(logger, () => sealer.open(RT1_ANONYMOUS, CTX, { principal: null, ttl: 900 }))).toBe("unsupported-version");
    const last = RT1_CAROL[RT1_CAROL.length - 1];
    const flipped = RT1_CAROL.slice(0, -1) + (last === "A" ? "B" : "A");
    expect(reasonOf(logger, () => sealer.open(flipped, CTX, { principal: "PRINCIPAL-carol" }))).toBe("unsupported-version");
    expect(logger.entries.map((entry) => entry.message)).toEqual(Array(3).fill("requestState rejected"));
  });

  it("computes no HMAC to refuse one", () => {
    const { sealer } = makeSealer();
    const hmac = jest.spyOn(nodeCrypto, "createHmac");
    try {
      rejectionOf(() => sealer.open(RT1_CAROL, CTX, { principal: "PRINCIPAL-carol" }));
      expect(hmac).not.toHaveBeenCalled();
    } finally {
      jest.restoreAllMocks();
    }
  });

  it("seals rt3 only", () => {
    const { sealer } = makeSealer([{ id: "A", secret: SECRET_A }]);
    expect(sealer.seal(DATA, CTX, { principal: "PRINCIPAL-carol" })).toMatch(/^rt3\.A\./);
  });
});
