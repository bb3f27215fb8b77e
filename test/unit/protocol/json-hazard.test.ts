/*
 * Pins jsonHazard (what in a component's result JSON cannot carry):
 * - plain JSON data, at any depth, has none; a repeated (not circular) reference is fine, and so
 *   is an object with its own toJSON (a Date), whatever it holds;
 * - a bigint, a function or a symbol anywhere (top level, in an object, in an array) is named;
 * - a cycle is "a circular reference", however deep; an object met twice off its own path is not;
 * - nesting far deeper than the call stack is walked without overflowing it.
 */
import { jsonHazard } from "../../../src/protocol/json-hazard";

describe("jsonHazard", () => {
  it("finds nothing in plain JSON data, shared references or toJSON objects", () => {
    const shared = { x: [1, "two", null, true] };
    expect(jsonHazard({ a: shared, b: [shared, shared], c: undefined, d: "s", e: 1.5 })).toBeUndefined();
    expect(jsonHazard(new Date(0))).toBeUndefined();
    expect(jsonHazard({ when: Object.assign(new Date(0), { extra: 1n }) })).toBeUndefined();
    for (const value of [null, 0, "", false, undefined, []]) expect(jsonHazard(value)).toBeUndefined();
  });

  it.each([
    ["a bigint", 1n],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
  ])("names %s wherever it is", (name, hazard) => {
    expect(jsonHazard(hazard)).toBe(name);
    expect(jsonHazard({ content: [{ type: "text", text: "x" }], deep: { list: [1, { bad: hazard }] } })).toBe(name);
    expect(jsonHazard([1, [2, [hazard]]])).toBe(name);
  });

  it("names a cycle", () => {
    const node: Record<string, unknown> = { children: [] };
    (node.children as unknown[]).push({ parent: { up: node } });
    expect(jsonHazard({ root: node })).toBe("a circular reference");
    const list: unknown[] = [];
    list.push(list);
    expect(jsonHazard(list)).toBe("a circular reference");
    // Deep paths, where membership is kept in a set: a cycle back to the 50th of 100 levels, and
    // the same object met again on a sibling branch (not a cycle).
    const levels: Record<string, unknown>[] = Array.from({ length: 100 }, () => ({}));
    levels.forEach((level, i) => (level.next = levels[i + 1]));
    levels[99]!.next = levels[50];
    expect(jsonHazard(levels[0])).toBe("a circular reference");
    levels[99]!.next = "end";
    expect(jsonHazard({ a: levels[0], b: [levels[0], levels[30]] })).toBeUndefined();
  });

  it("walks nesting deeper than the call stack", () => {
    const root: unknown[] = [];
    let node = root;
    for (let i = 0; i < 100_000; i++) node.push((node = []));
    expect(jsonHazard(root)).toBeUndefined();
    node.push(1n);
    expect(jsonHazard(root)).toBe("a bigint");
  });
});
