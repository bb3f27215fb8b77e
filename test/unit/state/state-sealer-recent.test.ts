/*
 * Pins the StateSealer's recent seals (recent-seals.ts): an open of a token the sealer made itself
 * skips the decoding, the MAC and the parse, and must give exactly the verdict of the full path.
 * - for any JSON data, binding, principal, lifetime and clock, and any of the ways a retry can
 *   differ (another salient param, another principal, a later clock, a shorter ttl at open, a
 *   longer binding than the kept text), the sealer's own open and another instance's open (same
 *   ring, so the full path) agree: the same data, or the same rejection with the same logged reason;
 * - each open returns a new value: changing what one open returned does not reach the next;
 * - a round's token is forgotten once opened (its next open takes the full path, and still
 *   opens); a session-lived token (sealLongLived) is kept for every open;
 * - a token is forgotten once RECENT_SEALS newer ones were sealed, or once the characters kept
 *   pass RECENT_SEAL_CHARS, oldest first; it still opens by the full path;
 * - only the exact token is answered from memory (they are found by their MAC): a token whose
 *   payload changed under the same MAC is refused by the full path (bad-mac);
 * - the same token sealed twice (same data, binding and second) is counted once.
 */
// The module object itself (not an import-star copy), so that spies replace what the sealer calls.
import nodeCrypto = require("node:crypto");
import fc from "fast-check";
import { MemoryLogger, SilentLogger } from "../../../src/testing/index";
import { McpError } from "../../../src/protocol/errors";
import type { StateBinding } from "../../../src/protocol/request-context";
import { deepFreeze } from "../../../src/protocol/deep-freeze";
import { StateSealer } from "../../../src/state/state-sealer";
import { RECENT_SEAL_CHARS, RECENT_SEALS, RecentSeals, type RecentSeal } from "../../../src/state/recent-seals";

const SECRET = "recent-seals-test-secret-0123456789abcdef";
const START_MS = 1_750_000_000_000;

type Outcome = { opened: unknown } | { rejected: unknown };

/** The outcome of `open`, with the reason the sealer logged for a rejection. */
function outcomeOf(logger: MemoryLogger, open: () => unknown): Outcome {
  const before = logger.entries.length;
  try {
    return { opened: open() };
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== -32602) throw error;
    return { rejected: logger.entries.slice(before).map((entry) => entry.fields?.reason) };
  }
}

/** Counts crypto.hash calls made while `run` runs. */
function hashesDuring(run: () => unknown): number {
  const spy = jest.spyOn(nodeCrypto, "hash");
  try {
    run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const request = (args: unknown): StateBinding => ({
  requestMethod: "tools/call",
  requestParams: deepFreeze({ name: "book", arguments: structuredClone(args), _meta: { progressToken: 1 } }),
});

type Change = "none" | "param" | "principal" | "later" | "shorter-ttl" | "unbound-fields";

describe("StateSealer recent seals", () => {
  it("gives the full path's verdict for any data, binding and change, with the same logged reason", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
        fc.option(fc.string({ minLength: 1, maxLength: 6 }), { nil: null }),
        fc.constantFrom<Change>("none", "param", "principal", "later", "shorter-ttl", "unbound-fields"),
        fc.integer({ min: 1, max: 900 }),
        fc.boolean(),
        (data, args, principal, change, ttl, long) => {
          let clock = START_MS;
          const now = () => clock;
          // A binding longer than the text kept (2048 characters) is compared by its digest.
          const bound = long ? { ...args, pad: "p".repeat(3000) } : args;
          const sealed = request(bound);
          const results = [true, false].map((own) => {
            clock = START_MS;
            const logger = new MemoryLogger();
            const sealer = new StateSealer({ secret: SECRET, now }, logger);
            const opener = own ? sealer : new StateSealer({ secret: SECRET, now }, logger);
            const token = sealer.seal(data, sealed, { principal, ttl });
            let ctx = request(bound);
            let openAs = principal;
            let openTtl = ttl;
            if (change === "param") ctx = request({ ...bound, changed: true });
            if (change === "principal") openAs = principal === null ? "someone" : null;
            if (change === "later") clock += ttl * 1000;
            if (change === "shorter-ttl") openTtl = Math.max(1, ttl - 1);
            if (change === "unbound-fields") {
              const params = { ...sealed.requestParams, inputResponses: { q: 1 }, requestState: token, _meta: {} };
              ctx = { requestMethod: "tools/call", requestParams: deepFreeze(structuredClone(params)) };
            }
            return outcomeOf(logger, () => opener.open(token, ctx, { principal: openAs, ttl: openTtl }));
          });
          expect(results[0]).toEqual(results[1]);
          if (change === "none" || change === "unbound-fields") expect(results[0]).toEqual({ opened: JSON.parse(JSON.stringify(data)) });
          if (change === "param" || change === "principal" || change === "later") expect(results[0]).toHaveProperty("rejected");
          if (change === "shorter-ttl" && ttl > 1) expect(results[0]).toEqual({ rejected: ["lifetime-exceeds-ttl"] });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("opens its own token without a hash, and each open gives a new value", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const token = sealer.sealLongLived({ answers: { city: "Lyon" } }, ctx, "alice", 3600);
    let first: { answers: { city: string } } | undefined;
    expect(hashesDuring(() => (first = sealer.openLongLived(token, ctx, "alice", 3600) as typeof first))).toBe(0);
    first!.answers.city = "changed";
    expect(sealer.openLongLived(token, request({ city: "Lyon" }), "alice", 3600)).toEqual({ answers: { city: "Lyon" } });
  });

  it("forgets a round's token once opened, and keeps a session-lived one", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const round = sealer.seal({ step: 1 }, ctx, { principal: "alice" });
    expect(hashesDuring(() => expect(sealer.open(round, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(0);
    // Forgotten: the same token opens again, by the full path (one HMAC; the digest was made at seal).
    expect(hashesDuring(() => expect(sealer.open(round, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(2);
    const session = sealer.sealLongLived({ session: 1 }, ctx, "alice", 3600);
    for (let i = 0; i < 3; i++) {
      expect(
        hashesDuring(() => expect(sealer.openLongLived(session, request({ city: "Lyon" }), "alice", 3600)).toEqual({ session: 1 })),
      ).toBe(0);
    }
  });

  it("forgets the oldest token past RECENT_SEALS, which then opens by the full path", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const tokens = Array.from({ length: RECENT_SEALS + 1 }, (_, i) => sealer.seal({ i }, ctx, { principal: null }));
    expect(hashesDuring(() => expect(sealer.open(tokens[0]!, ctx, { principal: null })).toEqual({ i: 0 }))).toBe(2);
    expect(hashesDuring(() => expect(sealer.open(tokens[1]!, ctx, { principal: null })).toEqual({ i: 1 }))).toBe(0);
  });

  it("keeps at most RECENT_SEALS tokens and RECENT_SEAL_CHARS characters, oldest out first", () => {
    // A token of 49 characters whose last 43 (its MAC) differ by `i`.
    const tokenOf = (i: number) => `rt3.k.${String(i).padStart(43, "0")}`;
    const seal = (i: number, body: string): RecentSeal => ({
      token: tokenOf(i),
      text: "[]",
      digest: "d",
      principal: "null",
      issued: 1,
      expires: 2,
      body,
    });
    const recent = new RecentSeals();
    for (let i = 0; i < RECENT_SEALS + 10; i++) recent.remember(seal(i, "x"));
    expect(recent.size).toBe(RECENT_SEALS);
    expect(recent.peek(tokenOf(9))).toBeUndefined();
    expect(recent.peek(tokenOf(10))).toBeDefined();

    const big = new RecentSeals();
    const body = "b".repeat(10_000);
    const fits = Math.floor(RECENT_SEAL_CHARS / (49 + 2 + 10_000));
    for (let i = 0; i < fits + 5; i++) big.remember(seal(i, body));
    expect(big.size).toBe(fits);
    expect(big.peek(tokenOf(4))).toBeUndefined();
    expect(big.peek(tokenOf(5))).toBeDefined();
  });

  it("answers only the exact token, counts the same token sealed twice once", () => {
    const token = `rt3.k.payload.${"m".repeat(43)}`;
    const seal: RecentSeal = {
      token,
      text: "[]",
      digest: "d",
      principal: "null",
      issued: 1,
      expires: 2,
      body: "b".repeat(RECENT_SEAL_CHARS / 4),
    };
    const recent = new RecentSeals();
    for (let i = 0; i < 8; i++) recent.remember(seal);
    recent.remember({ ...seal, token: `rt3.k.other.${"o".repeat(43)}` });
    expect(recent.size).toBe(2);
    // The same MAC behind another payload is not the token remembered.
    expect(recent.take(`rt3.k.payloaD.${"m".repeat(43)}`)).toBeUndefined();
    expect(recent.peek(token)).toBe(seal);
    expect(recent.take(token)).toBe(seal);
    expect(recent.take(token)).toBeUndefined();
  });

  it("refuses a token whose payload was changed under its MAC, as the full path does", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ secret: SECRET }, logger);
    const ctx = request({ city: "Lyon" });
    const token = sealer.seal({ role: "user" }, ctx, { principal: "alice" });
    const payloadStart = token.indexOf(".", 4) + 1;
    const changed = `${token.slice(0, payloadStart)}${token[payloadStart] === "A" ? "B" : "A"}${token.slice(payloadStart + 1)}`;
    expect(outcomeOf(logger, () => sealer.open(changed, ctx, { principal: "alice" }))).toEqual({ rejected: ["bad-mac"] });
    expect(sealer.open(token, ctx, { principal: "alice" })).toEqual({ role: "user" });
  });
});
