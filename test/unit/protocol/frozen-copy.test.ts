/*
 * Pins frozenCopy:
 * - a deep copy (no object or array of the result is one of the input's), frozen at every depth,
 *   equal to the input as JSON;
 * - properties holding undefined are left out; arrays keep their length and holes;
 * - a class instance becomes a plain object of its own enumerable properties;
 * - a key named "__proto__" is copied as an own property, never as the copy's prototype;
 * - the input is left as it was (not frozen).
 */
import { frozenCopy } from "../../../src/protocol/frozen-copy";

function everyNode(value: unknown, check: (node: object) => void): void {
  if (typeof value !== "object" || value === null) return;
  check(value);
  for (const item of Object.values(value)) everyNode(item, check);
}

describe("frozenCopy", () => {
  it("copies deeply and freezes every level", () => {
    const input = { a: { b: [1, { c: "x" }, [true, null]] }, d: 2 };
    const copy = frozenCopy(input);
    expect(copy).toEqual(input);
    everyNode(copy, (node) => expect(Object.isFrozen(node)).toBe(true));
    const inputs = new Set<object>();
    everyNode(input, (node) => inputs.add(node));
    everyNode(copy, (node) => expect(inputs.has(node)).toBe(false));
    everyNode(input, (node) => expect(Object.isFrozen(node)).toBe(false));
  });

  it("leaves out undefined properties and keeps array holes", () => {
    // eslint-disable-next-line no-sparse-arrays
    const copy = frozenCopy({ gone: undefined, kept: null, list: [1, , 3, undefined] });
    expect(Object.keys(copy)).toEqual(["kept", "list"]);
    expect(copy.list).toHaveLength(4);
    expect(1 in copy.list).toBe(false);
    expect(3 in copy.list).toBe(true);
  });

  it("turns a class instance into a plain object of its own properties", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      get sum(): number {
        return this.x + this.y;
      }
    }
    const copy = frozenCopy({ at: new Point(1, 2) });
    expect(Object.getPrototypeOf(copy.at)).toBe(Object.prototype);
    expect({ ...copy.at }).toEqual({ x: 1, y: 2 });
  });

  it("copies a __proto__ key as an own property", () => {
    const copy = frozenCopy(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: true });
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
