/*
 * Pins the binding text of rt3 and rt2 tokens (binding-digest.ts), whose one-walk writer must
 * give exactly canonicalJson([method, salient params]) or tokens sealed before would not open:
 * - equal to canonicalJson for any JSON params (fast-check), any key order, with `_meta`,
 *   `inputResponses` and `requestState` left out at the top level only;
 * - equal for keys that sort apart from their insertion order (array-index keys, code units above
 *   the BMP, `__proto__`), undefined properties dropped, and for values deeper than its fast walk;
 * - non-JSON params throw canonicalJson's TypeError naming the path;
 * - the digest is shared by an open and a seal only when the params are frozen all the way down:
 *   a params object changed in place is digested again;
 * - bindingTextOf gives the same text, kept likewise, and lastBindingText the text the last digest
 *   was made of, but "" for a text over KEPT_TEXT_CHARS (never kept).
 */
import fc from "fast-check";
import { canonicalJson } from "../../../src/protocol/canonical-json";
import { deepFreeze } from "../../../src/protocol/deep-freeze";
import { bindingDigestOf, bindingTextOf, KEPT_TEXT_CHARS, lastBindingText, requestTextOf } from "../../../src/state/binding-digest";

const UNBOUND = ["_meta", "inputResponses", "requestState"];

function expected(method: string, params: Record<string, unknown>): string {
  const salient: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(params)) if (!UNBOUND.includes(key)) salient[key] = params[key];
  return canonicalJson([method, salient]);
}

const textOf = (params: Record<string, unknown>, method = "tools/call") =>
  requestTextOf({ requestMethod: method, requestParams: params as never });

describe("requestTextOf", () => {
  it("is canonicalJson of the method and the salient params for any JSON params", () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (method, params, meta) => {
        expect(textOf(params, method)).toBe(expected(method, params));
        const withUnbound = { ...params, _meta: meta, inputResponses: meta, requestState: "x" };
        expect(textOf(withUnbound, method)).toBe(expected(method, params));
      }),
      { numRuns: 300 },
    );
  });

  it("sorts keys as canonicalJson does and keeps nested unbound names", () => {
    const params = JSON.parse(
      '{"b":1,"10":2,"2":3,"\\ud83d\\ude00":4,"\\uffff":5,"__proto__":{"z":1,"a":[{"y":2,"x":3}]},"arguments":{"_meta":1,"requestState":2},"u":null}',
    ) as Record<string, unknown>;
    (params as { skipped?: unknown }).skipped = undefined;
    expect(textOf(params)).toBe(expected("tools/call", params));
    expect(textOf(params)).toContain('"arguments":{"_meta":1,"requestState":2}');
    expect(textOf(params)).not.toContain("skipped");
  });

  it("writes values deeper than its fast walk", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 150; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(textOf({ arguments: deep })).toBe(expected("tools/call", { arguments: deep }));
  });

  it("throws canonicalJson's TypeError for params that are not JSON", () => {
    expect(() => textOf({ arguments: { when: new Date(0) } })).toThrow(new TypeError("Not JSON: a Date object at $[1].arguments.when"));
    expect(() => textOf({ arguments: [1, Number.NaN] })).toThrow(/^Not JSON: a non-finite number at \$\[1\]\.arguments\[1\]$/);
  });
});

describe("bindingDigestOf", () => {
  it("digests a params object frozen all the way down once, and one that is not at every call", () => {
    const frozen = { requestMethod: "tools/call", requestParams: deepFreeze({ name: "t", arguments: { n: [1] } }) };
    expect(bindingDigestOf(frozen)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const nested = { n: [1] };
    const open = { requestMethod: "tools/call", requestParams: Object.freeze({ name: "t", arguments: nested }) };
    const before = bindingDigestOf(open);
    expect(before).toBe(bindingDigestOf(frozen));
    nested.n.push(2);
    expect(bindingDigestOf(open)).not.toBe(before);
  });
});

describe("bindingTextOf and lastBindingText", () => {
  it("give the binding's text, kept for params frozen all the way down, written again for the others", () => {
    const frozen = { requestMethod: "tools/call", requestParams: deepFreeze({ name: "t", arguments: { n: [1] }, _meta: { x: 1 } }) };
    expect(bindingTextOf(frozen)).toBe('["tools/call",{"arguments":{"n":[1]},"name":"t"}]');
    // The digest of a text first kept by bindingTextOf is made from the kept text.
    expect(bindingDigestOf(frozen)).toBe(bindingDigestOf({ ...frozen, requestParams: deepFreeze({ name: "t", arguments: { n: [1] } }) }));
    expect(lastBindingText()).toBe('["tools/call",{"arguments":{"n":[1]},"name":"t"}]');
    const nested = { n: [1] };
    const open = { requestMethod: "tools/call", requestParams: Object.freeze({ name: "t", arguments: nested }) };
    expect(bindingTextOf(open)).toBe(bindingTextOf(frozen));
    nested.n.push(2);
    expect(bindingTextOf(open)).toBe('["tools/call",{"arguments":{"n":[1,2]},"name":"t"}]');
  });

  it("keep no text longer than KEPT_TEXT_CHARS: lastBindingText is then empty, and bindingTextOf writes it", () => {
    const long = { requestMethod: "tools/call", requestParams: deepFreeze({ name: "t", arguments: { pad: "p".repeat(KEPT_TEXT_CHARS) } }) };
    const digest = bindingDigestOf(long);
    expect(lastBindingText()).toBe("");
    expect(bindingDigestOf(long)).toBe(digest);
    expect(lastBindingText()).toBe("");
    expect(bindingTextOf(long)).toBe(textOf(long.requestParams));
    expect(bindingTextOf(long).length).toBeGreaterThan(KEPT_TEXT_CHARS);
  });
});
