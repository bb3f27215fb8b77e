/*
 * Pins compareNames (src/features/name-order.ts), the order of tools/list and prompts/list, equal
 * to the `localeCompare(…, "en")` it replaces, with fast-check (seeded, bounded): on names of the
 * characters a component name may have (A-Za-z0-9_.-), on pairs that differ only by case or by a
 * suffix (where the collator's levels matter), on whole lists sorted, and on strings with other
 * characters (where it defers to localeCompare).
 */
import fc from "fast-check";
import { compareNames } from "../../../src/features/name-order";

const RUNS = { seed: 20260728, numRuns: 2000 };
const ALLOWED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
const allowedChar = fc.constantFrom(...ALLOWED.split(""));
/** Short names over few characters collide often: equal prefixes, case-only differences. */
const nearChar = fc.constantFrom("a", "A", "b", "B", "z", "Z", "0", "9", "_", "-", ".");
const name = fc.oneof(
  fc.string({ unit: allowedChar, minLength: 1, maxLength: 12 }),
  fc.string({ unit: nearChar, minLength: 1, maxLength: 6 }),
);
const collator = (a: string, b: string) => Math.sign(a.localeCompare(b, "en"));

/** `text` with the case of the letters at the positions `flips` chose swapped. */
function flipCase(text: string, flips: readonly boolean[]): string {
  return [...text].map((c, i) => (flips[i % flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join("");
}

describe("compareNames", () => {
  it("is localeCompare(…, 'en') on every pair of allowed names", () => {
    fc.assert(
      fc.property(name, name, (a, b) => compareNames(a, b) === collator(a, b)),
      RUNS,
    );
  });

  it("is localeCompare(…, 'en') on names equal but for case, and on a name and its extensions", () => {
    fc.assert(
      fc.property(
        name,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.string({ unit: nearChar, maxLength: 3 }),
        (a, flips, tail) => {
          const b = flipCase(a, flips) + tail;
          return compareNames(a, b) === collator(a, b) && compareNames(b, a) === collator(b, a);
        },
      ),
      RUNS,
    );
  });

  it("sorts a list of distinct names as localeCompare(…, 'en') does", () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 30 }), (names) => {
        const expected = [...names].sort((a, b) => a.localeCompare(b, "en"));
        expect([...names].sort(compareNames)).toEqual(expected);
      }),
      { ...RUNS, numRuns: 300 },
    );
  });

  it("is localeCompare(…, 'en') on single characters and known orderings", () => {
    for (const a of ALLOWED) for (const b of ALLOWED) expect([a, b, compareNames(a, b)]).toEqual([a, b, collator(a, b)]);
    expect(compareNames("aB", "Ab")).toBe(-1);
    expect(compareNames("Aa", "ab")).toBe(-1);
    expect(compareNames("a-b", "ab")).toBe(-1);
    expect(compareNames("a_b", "a-b")).toBe(-1);
    expect(compareNames("tool", "tool")).toBe(0);
  });

  it("defers to localeCompare for strings with other characters", () => {
    const any = fc.string({ maxLength: 10 });
    fc.assert(
      fc.property(fc.oneof(name, any), any, (a, b) => compareNames(a, b) === collator(a, b) && compareNames(b, a) === collator(b, a)),
      RUNS,
    );
    expect(compareNames("é", "e")).toBe(collator("é", "e"));
    expect(compareNames("a b", "ab")).toBe(collator("a b", "ab"));
  });
});
