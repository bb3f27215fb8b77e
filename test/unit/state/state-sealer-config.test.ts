/*
 * Pins StateSealer configuration, call options, seal-time errors and key rings:
 * - construction throws a TypeError or RangeError naming the option for: missing options, unknown
 *   options, both or neither of secret and keys, a missing, mistyped or short (< 32 bytes) secret,
 *   a bad ring (not an array, empty, over 8, bad entry, unknown entry field, bad id, duplicate id,
 *   short or mistyped secret), a ttl outside 1..900 or not whole, a clock that is not a function;
 * - those messages never contain the secret or the offending id;
 * - 32-byte secrets (string by UTF-8 bytes, or Buffer), 8-key rings and 32-char ids are accepted;
 * - seal and open require `principal` (string or null; not missing, empty or another type) and
 *   check `ttl` and unknown call options and the ctx shape, as thrown TypeError/RangeError;
 * - seal throws a TypeError for non-JSON data and a StateTooLargeError naming size and limit (not the data)
 *   for a token over 16384 bytes; the largest token that fits opens;
 * - a key ring seals with its first key and opens with any (a token from the second key opens);
 * - three-step rotation across two instances keeps every token valid;
 * - the class is a plain exported class constructed as (options, logger?).
 */
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import type { StateOptions } from "../../../src/state/state-options";
import { StateSealer } from "../../../src/state/state-sealer";
import { StateTooLargeError } from "../../../src/state/state-too-large-error";

const SECRET = "config-test-secret-0123456789-abcdefghijklm";
const SECRET_2 = "config-test-secret-2-0123456789-abcdefghijk";
const SHORT = "short-secret-31-bytes-xxxxxxxxx"; // 31 bytes
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "t", arguments: {} } };

function build(options: unknown): StateSealer {
  return new StateSealer(options as StateOptions, new MemoryLogger());
}

function expectConfigError(
  options: unknown,
  type: typeof TypeError | typeof RangeError,
  message: RegExp,
  mustNotContain: string[] = [],
): void {
  let thrown: unknown;
  try {
    build(options);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(type);
  const text = (thrown as Error).message;
  expect(text).toMatch(message);
  for (const secret of [SECRET, SHORT, ...mustNotContain]) expect(text).not.toContain(secret);
}

describe("StateSealer construction", () => {
  it("checks that secrets are at least 32 bytes", () => {
    expect(SHORT.length).toBe(31);
    expectConfigError({ secret: SHORT }, RangeError, /option `secret` must be at least 32 bytes/);
    expectConfigError({ secret: Buffer.alloc(31, 7) }, RangeError, /option `secret` must be at least 32 bytes/);
    expectConfigError({ secret: "" }, RangeError, /option `secret` must be at least 32 bytes/);
    expect(() => build({ secret: "x".repeat(32) })).not.toThrow();
    expect(() => build({ secret: Buffer.alloc(32, 1) })).not.toThrow();
    expect(() => build({ secret: "\u00e9".repeat(16) })).not.toThrow(); // 16 characters, 32 UTF-8 bytes
  });

  it.each([
    // eslint-disable-next-line no-loss-of-precision -- any number will do: a secret must not be one
    ["a number", 12345678901234567890123456789012345],
    ["null", null],
    ["an array", ["x".repeat(40)]],
    ["a Uint8Array that is not a Buffer", new Uint8Array(40)],
  ])("rejects a secret that is %s", (_label, secret) => {
    expectConfigError({ secret }, TypeError, /option `secret` must be a string or a Buffer/);
  });

  it("requires exactly one of secret and keys", () => {
    expectConfigError({}, TypeError, /option `secret` .* or option `keys` .* is required/);
    expectConfigError({ ttl: 300 }, TypeError, /option `secret` .* or option `keys` .* is required/);
    expectConfigError(
      { secret: SECRET, keys: [{ id: "a", secret: SECRET }] },
      TypeError,
      /either option `secret` or option `keys`, not both/,
    );
  });

  it.each([undefined, null, "secret", 42, [SECRET]])("rejects options that are not an object: %p", (options) => {
    expectConfigError(options, TypeError, /StateSealer: options must be an object with `secret` or `keys`/);
  });

  it("rejects unknown options by name, without their value", () => {
    expectConfigError({ secret: SECRET, sekret: "a-value-that-must-not-appear" }, TypeError, /unknown option "sekret"/, [
      "a-value-that-must-not-appear",
    ]);
    expectConfigError({ secret: SECRET, maxTtl: 900 }, TypeError, /unknown option "maxTtl"/);
  });

  it.each([0, -1, 901, 1.5, NaN, Infinity, "300", null])("rejects ttl %p", (ttl) => {
    expectConfigError({ secret: SECRET, ttl }, RangeError, /StateSealer: option `ttl` must be a whole number of seconds from 1 to 900/);
  });

  it("accepts ttl 1 and 900", () => {
    expect(() => build({ secret: SECRET, ttl: 1 })).not.toThrow();
    expect(() => build({ secret: SECRET, ttl: 900 })).not.toThrow();
  });

  it("rejects a clock that is not a function", () => {
    expectConfigError({ secret: SECRET, now: 1_750_000_000_000 }, TypeError, /option `now` must be a function returning milliseconds/);
  });

  describe("key ring", () => {
    const key = (id: string, secret: unknown = SECRET) => ({ id, secret });

    it("rejects a ring that is not an array, empty, or over 8 keys", () => {
      expectConfigError({ keys: key("a") }, TypeError, /option `keys` must be an array of \{id, secret\}/);
      expectConfigError({ keys: [] }, RangeError, /option `keys` must hold 1 to 8 keys \(got 0\)/);
      const nine = Array.from({ length: 9 }, (_, i) => key(`k${i}`));
      expectConfigError({ keys: nine }, RangeError, /option `keys` must hold 1 to 8 keys \(got 9\)/);
      expect(() => build({ keys: nine.slice(0, 8) })).not.toThrow();
    });

    it.each([null, "a:secret", [SECRET]])("rejects an entry that is not an object: %p", (entry) => {
      expectConfigError({ keys: [key("a"), entry] }, TypeError, /option `keys\[1\]` must be an object \{id, secret\}/);
    });

    it("rejects an unknown field in an entry", () => {
      expectConfigError({ keys: [{ ...key("a"), primary: true }] }, TypeError, /option `keys\[0\]` has an unknown field "primary"/);
    });

    it.each([
      ["empty", ""],
      ["33 characters", "a".repeat(33)],
      ["with a dot", "a.b"],
      ["with a space", "a b"],
      ["with a colon", "a:b"],
      ["non-ASCII", "cl\u00e9"],
      ["a secret pasted as id", "c2VjcmV0LXZhbHVlLXRoYXQtaXMtdG9vLWxvbmctZm9yLWFuLWlk+/="],
      ["a number", 7],
      ["missing", undefined],
    ])("rejects an id that is %s, without echoing it", (_label, id) => {
      const echoed = typeof id === "string" && id.length > 3 ? [id] : [];
      expectConfigError(
        { keys: [key("ok"), { id, secret: SECRET }] },
        TypeError,
        /option `keys\[1\]`\.id must be 1 to 32 characters of A-Za-z0-9_-/,
        echoed,
      );
    });

    it("accepts a 32-character id of every allowed character class", () => {
      expect(() => build({ keys: [key("Az09_-".padEnd(32, "x"))] })).not.toThrow();
    });

    it("rejects duplicate ids", () => {
      expectConfigError(
        { keys: [key("a"), key("b"), key("a", SECRET_2)] },
        TypeError,
        /option `keys\[2\]`\.id repeats the id of keys\[0\]/,
      );
    });

    it("rejects a short, missing or mistyped secret in the ring", () => {
      expectConfigError({ keys: [key("a"), key("b", SHORT)] }, RangeError, /option `keys\[1\]`\.secret must be at least 32 bytes/);
      expectConfigError({ keys: [{ id: "a" }] }, TypeError, /option `keys\[0\]`\.secret is required/);
      expectConfigError({ keys: [key("a", 42)] }, TypeError, /option `keys\[0\]`\.secret must be a string or a Buffer/);
    });

    it("seals with the first key and opens with any", () => {
      const first = new StateSealer(
        {
          keys: [
            { id: "new", secret: SECRET_2 },
            { id: "old", secret: SECRET },
          ],
        },
        new MemoryLogger(),
      );
      const second = new StateSealer(
        {
          keys: [
            { id: "old", secret: SECRET },
            { id: "new", secret: SECRET_2 },
          ],
        },
        new MemoryLogger(),
      );
      expect(first.keyIds).toEqual(["new", "old"]);
      const byNew = first.seal({ v: 1 }, CTX, { principal: null });
      const byOld = second.seal({ v: 2 }, CTX, { principal: null });
      expect(byNew.split(".")[1]).toBe("new");
      expect(byOld.split(".")[1]).toBe("old");
      expect(first.open(byOld, CTX, { principal: null })).toEqual({ v: 2 });
      expect(second.open(byNew, CTX, { principal: null })).toEqual({ v: 1 });
    });

    it("keeps tokens valid through a three-step rotation across two instances", () => {
      const clock = { ms: 1_750_000_000_000 };
      const instance = (keys: { id: string; secret: string }[]) => new StateSealer({ keys, now: () => clock.ms }, new MemoryLogger());
      const k1 = { id: "k1", secret: SECRET };
      const k2 = { id: "k2", secret: SECRET_2 };
      // Before: both instances seal with k1.
      let a = instance([k1]);
      let b = instance([k1]);
      const before = a.seal({ n: 0 }, CTX, { principal: null });
      // Step 1: k2 added second, one instance at a time; both still seal with k1.
      a = instance([k1, k2]);
      const mid1 = a.seal({ n: 1 }, CTX, { principal: null });
      expect(b.open(mid1, CTX, { principal: null })).toEqual({ n: 1 });
      b = instance([k1, k2]);
      // Step 2: k2 moved first, one instance at a time; the other can already open k2 tokens.
      a = instance([k2, k1]);
      const mid2 = a.seal({ n: 2 }, CTX, { principal: null });
      expect(mid2.split(".")[1]).toBe("k2");
      expect(b.open(mid2, CTX, { principal: null })).toEqual({ n: 2 });
      expect(a.open(before, CTX, { principal: null })).toEqual({ n: 0 });
      b = instance([k2, k1]);
      // Step 3: after the longest ttl, k1 is removed; k1 tokens have expired anyway.
      clock.ms += 900_000;
      a = instance([k2]);
      b = instance([k2]);
      const after = a.seal({ n: 3 }, CTX, { principal: null });
      expect(b.open(after, CTX, { principal: null })).toEqual({ n: 3 });
    });
  });
});

describe("StateSealer call options", () => {
  const sealer = new StateSealer({ secret: SECRET }, new MemoryLogger());
  const token = sealer.seal({ v: 1 }, CTX, { principal: null });

  it.each([
    ["missing options", undefined, /options \{ principal \} are required/],
    ["null options", null, /options \{ principal \} are required/],
    ["no principal", {}, /option `principal` is required/],
    ["an undefined principal", { principal: undefined }, /option `principal` is required/],
    ["an empty principal", { principal: "" }, /option `principal` must be a non-empty string, or null/],
    ["a numeric principal", { principal: 7 }, /option `principal` must be a non-empty string, or null/],
    ["an object principal", { principal: { sub: "a" } }, /option `principal` must be a non-empty string, or null/],
    ["an unknown option", { principal: null, expires: 5 }, /unknown option "expires"/],
  ])("throws a TypeError for %s", (_label, options, message) => {
    const call = options as { principal: string | null };
    expect(() => sealer.seal({ v: 1 }, CTX, call)).toThrow(TypeError);
    expect(() => sealer.seal({ v: 1 }, CTX, call)).toThrow(message);
    expect(() => sealer.seal({ v: 1 }, CTX, call)).toThrow(/^StateSealer\.seal: /);
    expect(() => sealer.open(token, CTX, call)).toThrow(TypeError);
    expect(() => sealer.open(token, CTX, call)).toThrow(/^StateSealer\.open: /);
  });

  it.each([0, 901, 2.5, "60"])("throws a RangeError for call ttl %p", (ttl) => {
    const call = { principal: null, ttl } as unknown as { principal: null; ttl: number };
    expect(() => sealer.seal({ v: 1 }, CTX, call)).toThrow(RangeError);
    expect(() => sealer.open(token, CTX, call)).toThrow(/StateSealer\.open: option `ttl` must be a whole number of seconds from 1 to 900/);
  });

  it.each([
    ["null", null],
    ["no method", { requestParams: {} }],
    ["array params", { requestMethod: "tools/call", requestParams: [] }],
    ["null params", { requestMethod: "tools/call", requestParams: null }],
  ])("throws a TypeError for a ctx with %s", (_label, ctx) => {
    expect(() => sealer.seal({ v: 1 }, ctx as unknown as StateBinding, { principal: null })).toThrow(/ctx must be a StateBinding/);
    expect(() => sealer.open(token, ctx as unknown as StateBinding, { principal: null })).toThrow(/ctx must be a StateBinding/);
  });
});

describe("StateSealer.seal data", () => {
  const sealer = new StateSealer({ secret: SECRET, now: () => 1_750_000_000_000 }, new MemoryLogger());

  it.each([
    ["a function", { f: () => 1 }],
    ["a bigint", { n: BigInt(2) }],
    ["a symbol", [Symbol("s")]],
    ["NaN", { n: NaN }],
    ["Infinity", { n: Infinity }],
    ["a Date", { d: new Date(0) }],
    ["undefined", undefined],
  ])("throws a TypeError for %s", (_label, data) => {
    expect(() => sealer.seal(data, CTX, { principal: null })).toThrow(TypeError);
    expect(() => sealer.seal(data, CTX, { principal: null })).toThrow(/^Not JSON: /);
  });

  it("throws a StateTooLargeError naming size and limit, not the data, for a token over 16384 bytes", () => {
    const marker = "DATA-MARKER-";
    let thrown: unknown;
    try {
      sealer.seal({ big: marker + "x".repeat(20_000) }, CTX, { principal: null });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StateTooLargeError);
    expect(thrown).not.toBeInstanceOf(TypeError);
    expect((thrown as StateTooLargeError).limit).toBe(16384);
    expect((thrown as StateTooLargeError).size).toBeGreaterThan(16384);
    const message = (thrown as Error).message;
    expect(message).toMatch(/^StateSealer\.seal: the sealed state would be \d+ bytes, over the 16384-byte limit/);
    expect(Number(/would be (\d+) bytes/.exec(message)?.[1])).toBeGreaterThan(16384);
    expect(message).not.toContain(marker);
  });

  it("seals and opens the largest token that fits, and refuses one more byte of data", () => {
    let size = 12_000;
    let largest = "";
    for (; ; size++) {
      try {
        largest = sealer.seal({ s: "x".repeat(size) }, CTX, { principal: null });
      } catch (error) {
        expect((error as Error).message).toMatch(/over the 16384-byte limit/);
        break;
      }
    }
    expect(size).toBeGreaterThan(12_000);
    // base64 grows in steps of at most 2 characters per byte of data here
    expect(largest.length).toBeLessThanOrEqual(16384);
    expect(largest.length).toBeGreaterThan(16384 - 2);
    expect(sealer.open(largest, CTX, { principal: null })).toEqual({ s: "x".repeat(size - 1) });
  });
});
