/*
 * Pins the work StateSealer does on its success path, counted at node:crypto. Every HMAC is one
 * crypto.createHmac; the binding digest is one one-shot crypto.hash, made once per request:
 * - a seal computes exactly one HMAC (the MAC) and the binding digest (one hash), and creates no
 *   Hash object;
 * - an open by another instance (the same ring) in the same request as a seal (the same params
 *   object, frozen all the way down, as the framework's contexts are) computes exactly one HMAC
 *   and nothing else: no digest, no tag, for a token of the first ring key or of another, named
 *   or anonymous; in a new request it adds the one digest;
 * - an open by the sealer that made the token (its recent seals, state-sealer-recent.test.ts)
 *   computes no hash at all, in the request that sealed or in a new one;
 * - params that could still change are written again at every call, so a token sealed for them
 *   does not open once they changed in place (other-request);
 * - a refused open costs no more: the one HMAC (why it was refused comes from what the sealer
 *   remembers of its own token), and gives the one error;
 * - without crypto.hash (Node 20 before 20.12) the tokens are the same, the digest computed with
 *   createHash.
 */
// The module object itself (not an import-star copy), so that spies replace what the sealer calls.
import nodeCrypto = require("node:crypto");
import { MemoryLogger, SilentLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import { StateSealer } from "../../../src/state/state-sealer";
import { deepFreeze } from "../../../src/protocol/deep-freeze";
import { rejectionOf } from "../../support/state-rejection";

const PARAMS = { name: "book", arguments: { city: "Lyon", nights: 3, tags: ["a", "b"] }, _meta: { progressToken: 1 } };
/** The context of one request, as the framework makes it: params frozen all the way down. */
const frozenRequest = (): StateBinding => ({ requestMethod: "tools/call", requestParams: deepFreeze(structuredClone(PARAMS)) });
const CTX = frozenRequest();
const DATA = { answers: { dates: { from: "2026-08-01" } }, round: 2 };
const KEYS = [
  { id: "k2", secret: "cost-test-secret-2-0123456789abcdefghijklmn" },
  { id: "k1", secret: "cost-test-secret-1-0123456789abcdefghijklmn" },
];

/** Counts the node:crypto calls made while `run` runs. */
function count<T>(run: () => T): { result: T; hmac: number; hash: number; createHash: number } {
  const hmac = jest.spyOn(nodeCrypto, "createHmac");
  const hash = typeof nodeCrypto.hash === "function" ? jest.spyOn(nodeCrypto, "hash") : { mock: { calls: [] } };
  const createHash = jest.spyOn(nodeCrypto, "createHash");
  try {
    const result = run();
    return { result, hmac: hmac.mock.calls.length, hash: hash.mock.calls.length, createHash: createHash.mock.calls.length };
  } finally {
    jest.restoreAllMocks();
  }
}

const PRINCIPALS: [string, string | null][] = [
  ["a named principal", "alice"],
  ["anonymous", null],
];

describe("StateSealer cost", () => {
  it.each(PRINCIPALS)("seals with one HMAC and one digest (%s)", (_label, principal) => {
    const sealer = new StateSealer({ keys: KEYS }, new SilentLogger());
    const sealed = count(() => sealer.seal(DATA, frozenRequest(), { principal }));
    expect(sealed).toMatchObject({ hmac: 1, hash: 1, createHash: 0 });
    expect(sealer.open(sealed.result, CTX, { principal })).toEqual(DATA);
  });

  it.each(PRINCIPALS)(
    "opens another instance's token with one HMAC and nothing else in the request that sealed (%s)",
    (_label, principal) => {
      const sealer = new StateSealer({ keys: KEYS }, new SilentLogger());
      const other = new StateSealer({ keys: KEYS }, new SilentLogger());
      const ctx = frozenRequest();
      const token = sealer.seal(DATA, ctx, { principal });
      expect(count(() => other.open(token, ctx, { principal }))).toEqual({ result: DATA, hmac: 1, hash: 0, createHash: 0 });
      // The next request (a new params object) digests its binding once, then shares it.
      const next = frozenRequest();
      expect(count(() => other.open(token, next, { principal }))).toEqual({ result: DATA, hmac: 1, hash: 1, createHash: 0 });
      expect(count(() => other.seal(DATA, next, { principal }))).toMatchObject({ hmac: 1, hash: 0, createHash: 0 });
    },
  );

  it.each(PRINCIPALS)("opens its own token with no hash at all, in the request that sealed or the next (%s)", (_label, principal) => {
    const sealer = new StateSealer({ keys: KEYS }, new SilentLogger());
    const ctx = frozenRequest();
    expect(count(() => sealer.open(sealer.seal(DATA, ctx, { principal }), ctx, { principal }))).toMatchObject({
      result: DATA,
      hmac: 1,
      hash: 1,
    });
    const token = sealer.seal(DATA, ctx, { principal });
    expect(count(() => sealer.open(token, frozenRequest(), { principal }))).toEqual({ result: DATA, hmac: 0, hash: 0, createHash: 0 });
  });

  it("opens a token of a key that no longer seals with one HMAC", () => {
    const before = new StateSealer({ keys: [KEYS[1]!] }, new SilentLogger());
    const after = new StateSealer({ keys: KEYS }, new SilentLogger());
    const token = before.seal(DATA, CTX, { principal: "alice" });
    expect(count(() => after.open(token, CTX, { principal: "alice" }))).toEqual({ result: DATA, hmac: 1, hash: 0, createHash: 0 });
  });

  it("digests params that could still change at every call, so a change in place is another request", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ keys: KEYS }, logger);
    const other = new StateSealer({ keys: KEYS }, logger);
    const shallow = { name: "book", arguments: { city: "Lyon", nights: 3 } };
    for (const opener of [sealer, other]) {
      for (const params of [structuredClone(shallow), Object.freeze(structuredClone(shallow))]) {
        const ctx: StateBinding = { requestMethod: "tools/call", requestParams: params };
        const token = sealer.seal(DATA, ctx, { principal: "alice" });
        // Its own token: no crypto; another instance's: the HMAC and the digest, made again.
        const own = opener === sealer;
        expect(count(() => opener.open(token, ctx, { principal: "alice" }))).toEqual({
          result: DATA,
          hmac: own ? 0 : 1,
          hash: own ? 0 : 1,
          createHash: 0,
        });
        const again = sealer.seal(DATA, ctx, { principal: "alice" });
        (params.arguments as { nights: number }).nights = 30;
        rejectionOf(() => opener.open(again, ctx, { principal: "alice" }));
      }
    }
    // Why: from the sealer's memory of its own token; another instance cannot tell (bad-mac).
    expect(logger.entries.map((entry) => entry.fields?.reason)).toEqual(["other-request", "other-request", "bad-mac", "bad-mac"]);
  });

  it("costs no more to refuse, and refuses with the one error", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ keys: KEYS }, logger);
    const token = sealer.seal(DATA, CTX, { principal: "alice" });
    const refused = count(() => rejectionOf(() => sealer.open(token, CTX, { principal: "bob" })));
    expect(refused).toMatchObject({ hmac: 1, hash: 0, createHash: 0 });
    expect(logger.entries.map((entry) => entry.fields?.reason)).toEqual(["other-principal"]);
  });

  it("computes the same tokens with createHash when crypto.hash is missing", () => {
    const tokens: string[] = [];
    const oneShot = nodeCrypto.hash;
    for (const withoutHash of [false, true]) {
      try {
        if (withoutHash) (nodeCrypto as { hash: unknown }).hash = undefined;
        jest.isolateModules(() => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, loaded inside isolateModules
          const { StateSealer: Isolated } = require("../../../src/state/state-sealer") as typeof import("../../../src/state/state-sealer");
          const sealer = new Isolated({ keys: KEYS, now: () => 1_750_000_000_000 }, new SilentLogger());
          const ctx = frozenRequest();
          const sealed = count(() => sealer.seal(DATA, ctx, { principal: "alice" }));
          expect(sealed).toMatchObject(withoutHash ? { hmac: 1, hash: 0, createHash: 1 } : { hmac: 1, hash: 1, createHash: 0 });
          tokens.push(sealed.result);
          expect(sealer.open(sealed.result, ctx, { principal: "alice" })).toEqual(DATA);
        });
      } finally {
        (nodeCrypto as { hash: unknown }).hash = oneShot;
      }
    }
    expect(tokens[1]).toBe(tokens[0]);
  });
});
