/*
 * Pins the lifetime rules of StateSealer (clock injected as milliseconds, token in whole seconds):
 * - issued = floor(now / 1000), expires = issued + ttl; default ttl 300, configurable at construction;
 * - expiry is exclusive: a token opens one second before issued + ttl (and at its last millisecond)
 *   and fails at exactly issued + ttl (expired);
 * - a token issued in the future never opens (issued-in-future), even by a fraction of a second;
 * - opening with a shorter ttl than the token's lifetime fails (lifetime-exceeds-ttl), even at once;
 * - opening with a longer ttl never extends a token; a per-call ttl up to 900 seconds works;
 * - a sealer with another default ttl refuses tokens whose lifetime exceeds it;
 * - a clock returning NaN or Infinity is a thrown Error, never "valid forever";
 * - a binding that carries a longer lifetime (a 2025 session's round, STATE_LIFETIME) seals and
 *   opens with it when the call names no ttl; a shorter one never shortens the default, and an
 *   explicit ttl is used as given.
 */
import { MemoryLogger } from "../../../src/testing/index";
import { McpError } from "../../../src/protocol/errors";
import type { StateBinding } from "../../../src/protocol/request-context";
import { STATE_LIFETIME } from "../../../src/protocol/state-lifetime";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

const SECRET = "lifetime-test-secret-0123456789-abcdefghijk";
const T = 1_750_000_000; // seconds
const CTX: StateBinding = { requestMethod: "resources/read", requestParams: { uri: "file:///notes.txt" } };
const DATA = { step: 1 };

function clockedSealer(options: { ttl?: number } = {}) {
  const clock = { ms: T * 1000 };
  const logger = new MemoryLogger();
  const sealer = new StateSealer({ secret: SECRET, now: () => clock.ms, ...options }, logger);
  return { sealer, logger, clock };
}

function reasonOf(logger: MemoryLogger, open: () => unknown): unknown {
  rejectionOf(open);
  return logger.entries[logger.entries.length - 1]?.fields?.reason;
}

function fieldsOf(token: string): unknown[] {
  return JSON.parse(Buffer.from(token.split(".")[2]!, "base64url").toString("utf8")) as unknown[];
}

describe("StateSealer lifetime", () => {
  it("writes issued and expires in whole seconds, default ttl 300", () => {
    const { sealer, clock } = clockedSealer();
    clock.ms = T * 1000 + 999;
    const [, issued, expires] = fieldsOf(sealer.seal(DATA, CTX, { principal: null }));
    expect(issued).toBe(T);
    expect(expires).toBe(T + 300);
  });

  it("opens one second before issued + ttl and fails at exactly issued + ttl", () => {
    const { sealer, logger, clock } = clockedSealer();
    const token = sealer.seal(DATA, CTX, { principal: null });
    clock.ms = (T + 299) * 1000;
    expect(sealer.open(token, CTX, { principal: null })).toEqual(DATA);
    clock.ms = (T + 300) * 1000 - 1;
    expect(sealer.open(token, CTX, { principal: null })).toEqual(DATA);
    clock.ms = (T + 300) * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("expired");
    clock.ms = (T + 10_000) * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("expired");
  });

  it("applies a per-call ttl at seal", () => {
    const { sealer, logger, clock } = clockedSealer();
    const token = sealer.seal(DATA, CTX, { principal: "p", ttl: 900 });
    clock.ms = (T + 899) * 1000;
    expect(sealer.open(token, CTX, { principal: "p", ttl: 900 })).toEqual(DATA);
    clock.ms = (T + 900) * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: "p", ttl: 900 }))).toBe("expired");
  });

  it("rejects a token issued in the future", () => {
    const { sealer, logger, clock } = clockedSealer();
    clock.ms = (T + 10) * 1000;
    const token = sealer.seal(DATA, CTX, { principal: null });
    clock.ms = T * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("issued-in-future");
    clock.ms = (T + 10) * 1000 - 1;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("issued-in-future");
    clock.ms = (T + 10) * 1000;
    expect(sealer.open(token, CTX, { principal: null })).toEqual(DATA);
  });

  it("rejects a token whose lifetime is longer than the ttl given to open", () => {
    const { sealer, logger } = clockedSealer();
    const token = sealer.seal(DATA, CTX, { principal: null, ttl: 300 });
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null, ttl: 299 }))).toBe("lifetime-exceeds-ttl");
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null, ttl: 60 }))).toBe("lifetime-exceeds-ttl");
    expect(sealer.open(token, CTX, { principal: null, ttl: 300 })).toEqual(DATA);
  });

  it("does not extend a token when opened with a longer ttl", () => {
    const { sealer, logger, clock } = clockedSealer();
    const token = sealer.seal(DATA, CTX, { principal: null, ttl: 60 });
    clock.ms = (T + 59) * 1000;
    expect(sealer.open(token, CTX, { principal: null, ttl: 900 })).toEqual(DATA);
    clock.ms = (T + 60) * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null, ttl: 900 }))).toBe("expired");
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("expired");
  });

  it("uses the default ttl given at construction for seal and open", () => {
    const { sealer, logger, clock } = clockedSealer({ ttl: 600 });
    const token = sealer.seal(DATA, CTX, { principal: null });
    expect(fieldsOf(token)[2]).toBe(T + 600);
    clock.ms = (T + 599) * 1000;
    expect(sealer.open(token, CTX, { principal: null })).toEqual(DATA);
    clock.ms = (T + 600) * 1000;
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("expired");
  });

  it("refuses, with the default ttl, a token sealed for longer by a sealer with a longer default", () => {
    const { sealer: long } = clockedSealer({ ttl: 600 });
    const { sealer: standard, logger } = clockedSealer();
    const token = long.seal(DATA, CTX, { principal: null });
    expect(reasonOf(logger, () => standard.open(token, CTX, { principal: null }))).toBe("lifetime-exceeds-ttl");
    expect(standard.open(token, CTX, { principal: null, ttl: 600 })).toEqual(DATA);
  });

  it.each([NaN, Infinity, -Infinity])("throws an Error when the clock returns %p", (bad) => {
    const good = new StateSealer({ secret: SECRET, now: () => T * 1000 }, new MemoryLogger());
    const token = good.seal(DATA, CTX, { principal: null });
    const broken = new StateSealer({ secret: SECRET, now: () => bad }, new MemoryLogger());
    expect(() => broken.open(token, CTX, { principal: null })).toThrow(/clock option `now`/);
    expect(() => broken.open(token, CTX, { principal: null })).not.toThrow(McpError);
    expect(() => broken.seal(DATA, CTX, { principal: null })).toThrow(/clock option `now`/);
  });

  it("uses Date.now when no clock is given", () => {
    const sealer = new StateSealer({ secret: SECRET }, new MemoryLogger());
    const before = Math.floor(Date.now() / 1000);
    const [, issued] = fieldsOf(sealer.seal(DATA, CTX, { principal: null }));
    const after = Math.floor(Date.now() / 1000);
    expect(issued).toBeGreaterThanOrEqual(before);
    expect(issued).toBeLessThanOrEqual(after);
  });

  it("seals and opens with the longer lifetime a 2025 round's binding carries, when no ttl is named", () => {
    const { sealer, logger, clock } = clockedSealer();
    const round = { ...CTX, [STATE_LIFETIME]: 660 } as StateBinding;
    const token = sealer.seal(DATA, round, { principal: null });
    expect(fieldsOf(token).slice(1, 3)).toEqual([T, T + 660]);
    // The round opens it; a plain request (the sealer's 300 s) refuses a token that lives longer.
    expect(reasonOf(logger, () => sealer.open(token, CTX, { principal: null }))).toBe("lifetime-exceeds-ttl");
    clock.ms = (T + 659) * 1000;
    expect(sealer.open(token, round, { principal: null })).toEqual(DATA);
    // Shorter than the default: the default stands. An explicit ttl is used as given.
    const shorter = { ...CTX, [STATE_LIFETIME]: 60 } as StateBinding;
    expect(fieldsOf(sealer.seal(DATA, shorter, { principal: null })).slice(1, 3)).toEqual([T + 659, T + 659 + 300]);
    expect(fieldsOf(sealer.seal(DATA, round, { principal: null, ttl: 30 })).slice(1, 3)).toEqual([T + 659, T + 659 + 30]);
  });
});
