/*
 * Property tests (fast-check) of StateSealer and canonicalJson:
 * - any JSON value (fc.jsonValue) round-trips through seal/open, equal to its JSON round trip;
 * - canonicalJson is invariant under object key reordering at every depth, and parses back to
 *   the same value;
 * - any single-byte mutation of a valid token (any position, any other byte 0-255) fails to open
 *   with the exact -32602 error;
 * - any change to a salient param (set, add or delete a nested argument; change a top-level
 *   param) fails to open, while changes to the unbound top-level fields open.
 */
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { SilentLogger } from "../../../src/testing/index";
import { McpError } from "../../../src/protocol/errors";
import type { StateBinding } from "../../../src/protocol/request-context";
import { canonicalJson } from "../../../src/protocol/canonical-json";
import { StateSealer } from "../../../src/state/state-sealer";

const sealer = new StateSealer({ secret: "property-test-secret-0123456789-abcdefgh", now: () => 1_750_000_000_000 }, new SilentLogger());
const CTX: StateBinding = { requestMethod: "tools/call", requestParams: { name: "t", arguments: { a: [1, { b: "c" }] } } };

/** What a JSON value becomes on the wire (drops -0, as JSON does). */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function isStateRejection(error: unknown): boolean {
  return error instanceof McpError && error.code === -32602 && error.message === "Invalid or expired request state";
}

function opens(token: string, ctx: StateBinding): boolean {
  try {
    sealer.open(token, ctx, { principal: "p" });
    return true;
  } catch (error) {
    if (!isStateRejection(error)) throw error;
    return false;
  }
}

/** Same value, object keys in reverse order at every depth. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).reverse()) out[key] = reverseKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Sets an own property, even one named "__proto__". */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

describe("StateSealer properties", () => {
  it("round-trips any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const token = sealer.seal(value, CTX, { principal: null });
        expect(sealer.open(token, CTX, { principal: null })).toEqual(viaJson(value));
      }),
      { numRuns: 300 },
    );
  });

  it("canonicalJson ignores key order and parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(reverseKeys(value))).toBe(text);
        expect(JSON.parse(text)).toEqual(viaJson(value));
      }),
      { numRuns: 300 },
    );
  });

  it("rejects any single-byte mutation of a valid token", () => {
    const tokenArb = fc.jsonValue({ maxDepth: 2 }).map((data) => sealer.seal(data, CTX, { principal: "p" }));
    fc.assert(
      fc.property(tokenArb, fc.nat(), fc.integer({ min: 0, max: 255 }), (token, position, byte) => {
        const at = position % token.length;
        fc.pre(token.charCodeAt(at) !== byte);
        const mutated = token.slice(0, at) + String.fromCharCode(byte) + token.slice(at + 1);
        expect(opens(token, CTX)).toBe(true);
        expect(opens(mutated, CTX)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  const paramsArb = fc.record({
    name: fc.string({ minLength: 1 }),
    arguments: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
  });

  it("rejects any change to a salient param", () => {
    const change = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), key: fc.string(), value: fc.jsonValue({ maxDepth: 3 }) }),
      fc.record({ kind: fc.constant("delete" as const), index: fc.nat() }),
      fc.record({ kind: fc.constant("rename" as const), name: fc.string({ minLength: 1 }) }),
      fc.record({
        kind: fc.constant("top" as const),
        key: fc.string().filter((k) => !["_meta", "inputResponses", "requestState", "name", "arguments"].includes(k)),
        value: fc.jsonValue({ maxDepth: 2 }),
      }),
    );
    fc.assert(
      fc.property(paramsArb, change, (params, edit) => {
        const original = viaJson(params);
        const changed = viaJson(params) as Record<string, unknown> & { arguments: Record<string, unknown> };
        if (edit.kind === "set") setOwn(changed.arguments, edit.key, edit.value);
        else if (edit.kind === "delete") {
          const keys = Object.keys(changed.arguments);
          fc.pre(keys.length > 0);
          delete changed.arguments[keys[edit.index % keys.length]!];
        } else if (edit.kind === "rename") changed.name = edit.name;
        else setOwn(changed, edit.key, edit.value);
        fc.pre(!isDeepStrictEqual(viaJson(changed), original));

        const token = sealer.seal({ x: 1 }, { requestMethod: "tools/call", requestParams: original }, { principal: "p" });
        expect(opens(token, { requestMethod: "tools/call", requestParams: original })).toBe(true);
        expect(opens(token, { requestMethod: "tools/call", requestParams: changed })).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("opens whatever the unbound top-level fields hold", () => {
    fc.assert(
      fc.property(paramsArb, fc.jsonValue(), fc.jsonValue(), fc.string(), (params, meta, responses, state) => {
        const token = sealer.seal({ x: 1 }, { requestMethod: "tools/call", requestParams: params }, { principal: "p" });
        const retry = { ...viaJson(params), _meta: meta, inputResponses: responses, requestState: state };
        expect(opens(token, { requestMethod: "tools/call", requestParams: retry })).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
