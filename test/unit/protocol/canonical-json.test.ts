/*
 * Pins canonicalJson / strictJsonStringify:
 * - object key order does not change the canonical text; keys sort by UTF-16 code units;
 * - array order and value types change it (1 vs "1", null vs "null", true vs "true");
 * - 1 and 1.0 are one value (JavaScript cannot tell them apart); -0 is written as 0;
 * - strictJsonStringify keeps the caller's key order;
 * - undefined object properties are dropped, nested objects sorted too;
 * - non-JSON throws a TypeError naming the path, not the value: functions, symbols, bigints,
 *   NaN, Infinity, cycles, array holes, undefined at top level or in arrays, non-plain objects;
 * - a repeated (non-circular) reference is fine; null-prototype objects are plain;
 * - strings are escaped exactly as JSON.stringify escapes them;
 * - for any JSON value (fast-check), canonicalJson is JSON.stringify of a key-sorted copy and
 *   strictJsonStringify is JSON.stringify, deep values (past the fast writer's 100 levels)
 *   included; a non-JSON value deep inside is still reported with its path.
 */
import fc from "fast-check";
import { canonicalJson, strictJsonStringify } from "../../../src/protocol/canonical-json";

/** The oracle: JSON.stringify with object keys sorted at every depth (written by hand, since an
 * object cannot hold "10" after "1a": integer-like keys always come first). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${sortedJson(record[key])}`)
    .join(",")}}`;
}

/** `[[[...[leaf]...]]]`, `depth` arrays deep. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
  return value;
}

describe("canonicalJson and strictJsonStringify on any JSON value", () => {
  it("write what JSON.stringify writes, canonical with keys sorted", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(strictJsonStringify(value)).toBe(JSON.stringify(value));
        expect(canonicalJson(value)).toBe(sortedJson(value));
      }),
      { seed: 20260728, numRuns: 500 },
    );
  });

  it("write objects in any insertion order, with array-index keys, __proto__ and undefined properties", () => {
    // Keys chosen to collide: array-index keys (which Object.keys lists first), keys that sort
    // around them, __proto__, and undefined values that are dropped.
    const key = fc.constantFrom("0", "1", "10", "2", "01", "-1", "a", "B", "__proto__", "é", "");
    const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null), fc.constant(undefined));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 3 }), tie("object")),
      node: fc.oneof(fc.integer(), tie("object")),
      object: fc.array(fc.tuple(key, tie("tree")), { maxLength: 6 }).map((entries) => {
        const object: Record<string, unknown> = Object.create(null);
        for (const [name, value] of entries) object[name] = value;
        return object;
      }),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        if (value === undefined) return;
        const withoutUndefined = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(value)).toBe(sortedJson(withoutUndefined));
        expect(canonicalJson(withoutUndefined)).toBe(canonicalJson(value));
      }),
      { seed: 20261201, numRuns: 1000 },
    );
  });

  it("write values deeper than the fast writer follows", () => {
    for (const depth of [99, 100, 101, 250]) {
      const value = nested(depth, { b: 1, a: [2, "x"] });
      expect(strictJsonStringify(value)).toBe(JSON.stringify(value));
      expect(canonicalJson(value)).toBe(sortedJson(value));
    }
  });

  it("name the path of a non-JSON value at any depth", () => {
    expect(() => canonicalJson({ a: [1, { b: 2, c: [BigInt(1)] }] })).toThrow(/^Not JSON: a bigint at \$\.a\[1\]\.c\[0\]$/);
    expect(() => strictJsonStringify(nested(150, Symbol("s")))).toThrow(/^Not JSON: a symbol at \$(\.k|\[0\])+$/);
  });
});

describe("canonicalJson", () => {
  it("ignores object key order, at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: null } })).toBe('{"a":{"c":null,"d":[1,2]},"b":1}');
    expect(canonicalJson({ a: { c: null, d: [1, 2] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [1, 2], c: null } }));
  });

  it("sorts keys by UTF-16 code units", () => {
    expect(canonicalJson({ b: 0, B: 0, a: 0, "\u00e9": 0, "10": 0, "9": 0 })).toBe('{"10":0,"9":0,"B":0,"a":0,"b":0,"\u00e9":0}');
  });

  it("keeps array order", () => {
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
    expect(canonicalJson([2, 1])).toBe("[2,1]");
  });

  it("distinguishes value types", () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
    expect(canonicalJson(null)).not.toBe(canonicalJson("null"));
    expect(canonicalJson(true)).not.toBe(canonicalJson("true"));
    expect(canonicalJson([])).not.toBe(canonicalJson({}));
  });

  it("treats 1 and 1.0 as one value and writes -0 as 0", () => {
    expect(canonicalJson(1.0)).toBe("1");
    expect(canonicalJson(JSON.parse("1.0"))).toBe(canonicalJson(JSON.parse("1")));
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson(1e21)).toBe("1e+21");
  });

  it("escapes strings as JSON.stringify does", () => {
    const text = 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 emoji \u{1f600}';
    expect(canonicalJson(text)).toBe(JSON.stringify(text));
    expect(canonicalJson({ [text]: text })).toBe(`{${JSON.stringify(text)}:${JSON.stringify(text)}}`);
  });

  it("drops undefined object properties", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it("accepts null-prototype objects and repeated non-circular references", () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.z = 1;
    bare.a = 2;
    expect(canonicalJson(bare)).toBe('{"a":2,"z":1}');
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it("keeps an own __proto__ key as a key", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  const notJson: [string, unknown, RegExp][] = [
    ["a function", { a: { f: () => 1 } }, /^Not JSON: a function at \$\.a\.f$/],
    ["a symbol", [Symbol("s")], /^Not JSON: a symbol at \$\[0\]$/],
    ["a bigint", { n: BigInt(1) }, /^Not JSON: a bigint at \$\.n$/],
    ["NaN", { n: NaN }, /non-finite number at \$\.n/],
    ["Infinity", [Infinity], /non-finite number at \$\[0\]/],
    ["-Infinity", -Infinity, /non-finite number at \$$/],
    ["undefined at the top", undefined, /undefined at \$$/],
    ["undefined in an array", [1, undefined], /undefined at \$\[1\]/],
    // eslint-disable-next-line no-sparse-arrays -- the hole is the input under test
    ["an array hole", [1, , 3], /array hole at \$\[1\]/],
    ["a Date", { d: new Date(0) }, /a Date object at \$\.d/],
    ["a Map", new Map(), /a Map object at \$/],
    ["a Buffer", { b: Buffer.from("x") }, /a Buffer object at \$\.b/],
    ["a boxed string", { s: new String("x") }, /a String object/],
    [
      "a class instance",
      {
        c: new (class Point {
          x = 1;
        })(),
      },
      /a Point object at \$\.c/,
    ],
  ];

  it.each(notJson)("throws a TypeError for %s", (_label, value, message) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => canonicalJson(value)).toThrow(message);
    expect(() => strictJsonStringify(value)).toThrow(message);
  });

  it("throws on a cycle", () => {
    const a: Record<string, unknown> = { b: {} };
    (a.b as Record<string, unknown>).back = a;
    expect(() => canonicalJson(a)).toThrow(/circular reference at \$\.b\.back/);
    const list: unknown[] = [];
    list.push(list);
    expect(() => canonicalJson(list)).toThrow(/circular reference at \$\[0\]/);
  });

  it("does not put the offending value in the message", () => {
    const secretish = "s3cr3t-value-should-not-leak";
    expect(() => canonicalJson({ k: [secretish, BigInt(7)] })).toThrow(/^Not JSON: a bigint at \$\.k\[1\]$/);
  });
});

describe("strictJsonStringify", () => {
  it("keeps the caller's key order and otherwise matches JSON.stringify", () => {
    const value = { b: 1, a: [true, null, "x", { d: 1.5, c: -2 }] };
    expect(strictJsonStringify(value)).toBe(JSON.stringify(value));
    expect(strictJsonStringify(value)).toBe('{"b":1,"a":[true,null,"x",{"d":1.5,"c":-2}]}');
  });

  it("applies the same checks as canonicalJson", () => {
    expect(() => strictJsonStringify({ f() {} })).toThrow(TypeError);
    expect(strictJsonStringify({ a: undefined })).toBe("{}");
  });
});
