// Pins IdTable, the per-request tables of a stdio connection (requests open, in flight on the SDK
// path, answered by the lane), keyed by JSON-RPC id:
// - the string "1" and the number 1 are different ids; ids named like Object.prototype members
//   ("__proto__", "constructor", "toString") are ids like any other;
// - size, has, get, set (a second set replaces, not adds), delete (whether there was an entry),
//   values and clear agree over many added and removed entries, as a Map would;
// - no Map or Set inside (see the class: a Map churned per request chains its old tables into the
//   old generation).
import { IdTable } from "../../../../src/server/request/id-table";

describe("IdTable", () => {
  it("tells the string and the number apart, and takes ids named like prototype members", () => {
    const table = new IdTable<string>();
    for (const id of [1, "1", "__proto__", "constructor", "toString", 0, "", -1.5]) table.set(id, `v${String(id)}:${typeof id}`);
    expect(table.size).toBe(8);
    expect([table.get(1), table.get("1"), table.get("__proto__"), table.get("constructor")]).toEqual([
      "v1:number",
      "v1:string",
      "v__proto__:string",
      "vconstructor:string",
    ]);
    expect(table.has(2)).toBe(false);
    expect(table.get("hasOwnProperty")).toBeUndefined();
    expect(table.delete("1")).toBe(true);
    expect(table.delete("1")).toBe(false);
    expect(table.has(1)).toBe(true);
    expect(table.size).toBe(7);
  });

  it("agrees with a Map over many entries added and removed", () => {
    const table = new IdTable<number>();
    const reference = new Map<string | number, number>();
    let state = 17;
    for (let step = 0; step < 5_000; step++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const id = state % 3 === 0 ? `r${state % 40}` : state % 40;
      if (state % 5 < 3) {
        table.set(id, step);
        reference.set(id, step);
      } else {
        expect(table.delete(id)).toBe(reference.delete(id));
      }
      expect(table.size).toBe(reference.size);
      expect(table.get(id)).toBe(reference.get(id));
      expect(table.has(id)).toBe(reference.has(id));
    }
    expect(table.values().sort((a, b) => a - b)).toEqual([...reference.values()].sort((a, b) => a - b));
    table.clear();
    expect([table.size, table.values(), table.has(1)]).toEqual([0, [], false]);
  });

  it("keeps no Map or Set", () => {
    const table = new IdTable<number>();
    table.set(1, 1);
    for (const value of Object.values(table)) {
      expect(value).not.toBeInstanceOf(Map);
      expect(value).not.toBeInstanceOf(Set);
    }
  });
});
