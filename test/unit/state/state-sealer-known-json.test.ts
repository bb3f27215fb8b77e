/*
 * Pins StateSealer.sealKnownJson, the framework's internal seal for its own carried state:
 * - it writes the very token `seal` writes for the same JSON data, clock, binding and principal,
 *   and `open` opens it (for that binding and principal only);
 * - it skips the strict-JSON walk (strictJsonStringify is not called) where `seal` makes it;
 * - it keeps the checks: a ctx that is not a StateBinding and a missing principal are TypeErrors,
 *   a token over 16384 bytes is a StateTooLargeError;
 * - the public `seal` still refuses data that is not JSON with a TypeError.
 */
import * as canonicalJson from "../../../src/protocol/canonical-json";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { StateTooLargeError } from "../../../src/state/state-too-large-error";
import { SilentLogger } from "../../../src/testing/index";

const NOW = 1_780_000_000_000;
const sealer = new StateSealer({ secret: "known-json-secret-0123456789abcdefghijkl", now: () => NOW }, new SilentLogger());
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "book", arguments: { city: "Lyon" } } };
const STATE = { r: 2, a: { seats: { d: "abc", o: { action: "accept", content: { count: 3, tags: ["x"] } } } }, o: "op-1" };

afterEach(() => jest.restoreAllMocks());

describe("StateSealer.sealKnownJson", () => {
  it("writes the token seal writes, which open opens for the same binding only", () => {
    const token = sealer.sealKnownJson(STATE, CTX, { principal: "alice" });
    expect(token).toBe(sealer.seal(STATE, CTX, { principal: "alice" }));
    expect(sealer.open(token, CTX, { principal: "alice" })).toEqual(STATE);
    expect(() => sealer.open(token, CTX, { principal: "bob" })).toThrow("Invalid or expired request state");
    const other: StateBinding = { requestMethod: "tools/call", requestParams: { name: "book", arguments: { city: "Nice" } } };
    expect(() => sealer.open(token, other, { principal: "alice" })).toThrow("Invalid or expired request state");
  });

  it("skips the strict-JSON walk that seal makes", () => {
    const walk = jest.spyOn(canonicalJson, "strictJsonStringify");
    sealer.sealKnownJson(STATE, CTX, { principal: null });
    expect(walk).not.toHaveBeenCalled();
    sealer.seal(STATE, CTX, { principal: null });
    expect(walk).toHaveBeenCalledTimes(1);
  });

  it("keeps the binding, principal and size checks", () => {
    expect(() => sealer.sealKnownJson(STATE, { requestMethod: "tools/call" } as unknown as StateBinding, { principal: null })).toThrow(
      new TypeError("StateSealer.seal: ctx must be a StateBinding { requestMethod: string, requestParams: object }"),
    );
    expect(() => sealer.sealKnownJson(STATE, CTX, {} as never)).toThrow(TypeError);
    expect(() => sealer.sealKnownJson(STATE, CTX, { principal: "" })).toThrow(TypeError);
    expect(() => sealer.sealKnownJson({ ...STATE, o: "x".repeat(20_000) }, CTX, { principal: null })).toThrow(StateTooLargeError);
  });
});

describe("StateSealer.seal (public) after the internal entry", () => {
  it.each([
    ["a function", { f: () => 1 }],
    ["a non-finite number", { n: Number.NaN }],
    ["a bigint", { b: BigInt(1) }],
    ["a Date", { d: new Date(0) }],
  ])("still refuses %s with a TypeError", (_name, data) => {
    expect(() => sealer.seal(data, CTX, { principal: null })).toThrow(TypeError);
  });
});
