// Pins the request limits' pure parts (src/server/request-limits.ts):
// - scanJsonText and scanJsonValue agree with each other on every limit (and, on arbitrary JSON,
//   on whether one is crossed): depth, total keys, keys of
//   one object, total array elements, string length (decoded, escapes counted as one character);
//   a request exactly at a limit passes, one over it is reported with the limit's name;
// - the text scan never throws and stops at the first limit, whatever the text (also malformed);
// - strings hide structure: brackets, colons and commas inside strings (escaped quotes included)
//   count for nothing;
// - a cycle in a parsed value is reported as too deep, not a hang;
// - scanJsonText, which passes a short text by counting its `{`, `[` and `:` when those counts
//   cannot reach the limits, says exactly what the full scan says, on any text;
// - requestIdOf finds the top-level id of raw text only when the top-level method is a string and
//   the id is a string or an integer (what MCP allows), also from the start of a text cut short;
// - resolveRequestLimits keeps the defaults, takes positive integers, and names a bad option;
// - describeBreach names the limit and its value.
import fc from "fast-check";
import {
  DEFAULT_REQUEST_LIMITS,
  describeBreach,
  requestIdOf,
  resolveRequestLimits,
  scanJsonText,
  scanJsonTextFully,
  scanJsonValue,
  type RequestLimits,
} from "../../../../src/server/checks/request-limits";

const small: RequestLimits = { maxBodyBytes: 1000, maxDepth: 4, maxKeys: 6, maxObjectKeys: 3, maxArrayItems: 5, maxStringLength: 8 };

function both(value: unknown, limits: RequestLimits = small) {
  const fromText = scanJsonText(JSON.stringify(value), limits);
  const fromValue = scanJsonValue(value, limits);
  expect(fromText).toEqual(fromValue);
  return fromValue?.limit;
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

describe("scanJsonText and scanJsonValue", () => {
  it("pass a request exactly at every limit", () => {
    expect(both({ a: { b: { c: [1, 2, 3, 4, 5] } } })).toBeUndefined();
    expect(both({ a: "12345678", b: { c: 1, d: 2, e: 3 } })).toBeUndefined();
  });

  it.each([
    ["depth", nested(5), "maxDepth"],
    ["total keys", { a: { b: 1, c: 2 }, d: { e: 1, f: 2 }, g: { h: 1 } }, "maxKeys"],
    ["keys of one object", { a: 1, b: 2, c: 3, d: 4 }, "maxObjectKeys"],
    [
      "total array elements",
      [
        [1, 2, 3],
        [4, 5],
      ],
      "maxArrayItems",
    ],
    ["string length", { a: "123456789" }, "maxStringLength"],
    ["key length", { "123456789": 1 }, "maxStringLength"],
  ])("report %s over the limit", (_what, value, limit) => {
    expect(both(value)).toBe(limit);
  });

  it("count an escape as one character, as String.length does", () => {
    expect(both({ a: "\n\n\n\n\n\n\n\n" })).toBeUndefined();
    expect(both({ a: "é".repeat(8) })).toBeUndefined();
    expect(scanJsonText('{"a":"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"}', small)).toBeUndefined();
    expect(scanJsonText('{"a":"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\n"}', small)?.limit).toBe("maxStringLength");
  });

  it("ignore structure inside strings, escaped quotes included", () => {
    const loose = { ...small, maxStringLength: 100 };
    expect(both({ a: '{[[[[[[:,:,:,"]]]]]]}', b: '\\"{{{{{{' }, loose)).toBeUndefined();
    expect(scanJsonText('{"a":"\\\\"}', small)).toBeUndefined();
  });

  it("agree on arbitrary JSON whether a limit is crossed (which one first may differ: the walk counts an object's keys at once)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(scanJsonText(JSON.stringify(value), small) === undefined).toBe(scanJsonValue(value, small) === undefined);
      }),
      { seed: 12, numRuns: 400 },
    );
  });

  it("never throw on malformed text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "a", " ", "1") }), (text) => {
        scanJsonText(text, small);
        requestIdOf(text);
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it("stop at the first limit of a huge body", () => {
    const keys = `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":1`).join(",")}}`;
    expect(scanJsonText(keys, DEFAULT_REQUEST_LIMITS)?.limit).toBe("maxObjectKeys");
    expect(scanJsonText(`${"[".repeat(2000)}${"]".repeat(2000)}`, DEFAULT_REQUEST_LIMITS)).toEqual({ limit: "maxDepth", maximum: 64 });
  });

  it("say what the full scan says when they pass a short text by its counts, on any text", () => {
    // Limits the counts can decide under (long arrays and strings allowed), and the defaults.
    const counted: RequestLimits = { ...small, maxArrayItems: 10_000, maxStringLength: 10_000 };
    const alphabet = fc.constantFrom("{", "}", "[", "]", ",", ":", '"', "\\", "a", " ", "1");
    for (const limits of [counted, small, DEFAULT_REQUEST_LIMITS]) {
      fc.assert(
        fc.property(fc.string({ unit: alphabet, maxLength: 80 }), (text) => {
          expect(scanJsonText(text, limits)).toEqual(scanJsonTextFully(text, limits));
        }),
        { seed: 31, numRuns: 1000 },
      );
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
          const text = JSON.stringify(value);
          expect(scanJsonText(text, limits)).toEqual(scanJsonTextFully(text, limits));
        }),
        { seed: 32, numRuns: 400 },
      );
    }
  });

  it("report a breach in a short text, and count nothing inside strings", () => {
    const counted: RequestLimits = { ...small, maxArrayItems: 10_000, maxStringLength: 10_000 };
    expect(scanJsonText('{"a":{"b":[[{}]]}}', counted)).toEqual({ limit: "maxDepth", maximum: 4 });
    expect(scanJsonText('{"a":1,"b":2,"c":3,"d":4}', counted)).toEqual({ limit: "maxObjectKeys", maximum: 3 });
    expect(scanJsonText('{"a":"{{{{[[[[::::::::"}', counted)).toBeUndefined();
    expect(scanJsonText(`{"a":"${"x".repeat(5000)}"}`, { ...counted, maxStringLength: 4999 })).toEqual({
      limit: "maxStringLength",
      maximum: 4999,
    });
  });

  it("report a cycle as too deep", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(scanJsonValue(cyclic, DEFAULT_REQUEST_LIMITS)?.limit).toBe("maxDepth");
  });
});

describe("requestIdOf", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}', 7],
    ['{"params":{"id":1,"x":[{"id":2}]},"method":"m","id":"abc"}', "abc"],
    ['{ "id" : 15 , "method" : "m" }', 15],
    ['{"id":1.5,"method":"m"}', null],
    ['{"id":"a\\"b","method":"m"}', 'a"b'],
    ['{"id":1,"method":5}', null],
    ['{"id":1}', null],
    ['{"id":null,"method":"m"}', null],
    ['{"id":{"x":1},"method":"m"}', null],
    ["[1,2]", null],
    ['{"id":1,"method":"m"', 1],
    ['{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"pad":"ppppp', "x"],
    ['{"jsonrpc":"2.0","method":"tools/list","params":{"pad":"ppp', null],
    ["not json", null],
  ])("reads %s as %j", (text, id) => {
    expect(requestIdOf(text)).toEqual(id);
  });
});

describe("resolveRequestLimits", () => {
  it("keeps the defaults and takes what is given", () => {
    expect(resolveRequestLimits()).toEqual(DEFAULT_REQUEST_LIMITS);
    expect(resolveRequestLimits({ maxDepth: 10 })).toEqual({ ...DEFAULT_REQUEST_LIMITS, maxDepth: 10 });
  });

  it("names a bad option", () => {
    expect(() => resolveRequestLimits({ maxDepth: 0 })).toThrow("limits.maxDepth must be a positive integer, got 0");
    expect(() => resolveRequestLimits({ maxKeys: 1.5 })).toThrow(RangeError);
    expect(() => resolveRequestLimits({ maxDeph: 3 } as never)).toThrow('limits: unknown limit "maxDeph"');
  });

  it("describes a breach by the limit's name and value", () => {
    expect(describeBreach({ limit: "maxDepth", maximum: 64 })).toBe("Request nested deeper than 64 levels (limit maxDepth)");
    expect(describeBreach({ limit: "maxObjectKeys", maximum: 1000 })).toContain("limit maxObjectKeys");
  });
});
