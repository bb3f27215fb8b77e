/*
 * Pins deepFreeze:
 * - it freezes in place (same references back), every object and array at every depth;
 * - primitives and null come back as they are;
 * - cycles and shared branches end the walk (each object visited once), and nesting far deeper
 *   than the call stack allows is frozen without overflowing it (the walk is iterative);
 * - an object already frozen is not entered (documented: such values are taken as they are);
 * - array buffer views, which cannot be frozen, are left alone instead of throwing.
 */
import { deepFreeze } from "../../../src/protocol/deep-freeze";

describe("deepFreeze", () => {
  it("freezes in place, at every depth", () => {
    const inner = { c: [1, { d: "x" }] };
    const value = { a: inner, b: [inner.c] };
    expect(deepFreeze(value)).toBe(value);
    expect(value.a).toBe(inner);
    for (const node of [value, value.a, value.b, inner.c, inner.c[1]]) expect(Object.isFrozen(node)).toBe(true);
    expect(() => ((inner.c[1] as { d: string }).d = "y")).toThrow(TypeError);
    expect(value).toEqual({ a: { c: [1, { d: "x" }] }, b: [[1, { d: "x" }]] });
  });

  it("returns primitives and null as they are", () => {
    for (const value of [1, "s", true, null, undefined, 10n]) expect(deepFreeze(value)).toBe(value);
  });

  it("ends on cycles and shared branches", () => {
    const a: Record<string, unknown> = { name: "a" };
    const b: Record<string, unknown> = { name: "b", a };
    a.b = b;
    a.self = a;
    a.list = [b, b, a];
    deepFreeze(a);
    expect([a, b, a.list].every((node) => Object.isFrozen(node))).toBe(true);
  });

  it("freezes nesting far deeper than the call stack", () => {
    const root: unknown[] = [];
    let node = root;
    for (let i = 0; i < 100_000; i++) node.push((node = []));
    deepFreeze({ root });
    let frozen = 0;
    for (let cursor: unknown[] | undefined = root; cursor !== undefined; cursor = cursor[0] as unknown[] | undefined)
      if (Object.isFrozen(cursor)) frozen++;
    expect(frozen).toBe(100_001);
  });

  it("does not enter an object someone else already froze", () => {
    const mutable = { x: 1 };
    const frozen = Object.freeze({ mutable });
    deepFreeze({ frozen });
    expect(Object.isFrozen(mutable)).toBe(false);
  });

  it("leaves typed arrays alone", () => {
    const value = { bytes: new Uint8Array([1, 2]), list: [new Float64Array(1)] };
    expect(() => deepFreeze(value)).not.toThrow();
    expect(Object.isFrozen(value) && Object.isFrozen(value.list)).toBe(true);
    value.bytes[0] = 9;
    expect(value.bytes[0]).toBe(9);
  });
});
