/*
 * Pins the StateSealer's recent seals (recent-seals.ts): an open of a token the sealer made itself
 * skips the decoding, the MAC and the parse, and must give exactly the verdict of the full path.
 * - for any JSON data, binding, principal, lifetime and clock, and any of the ways a retry can
 *   differ (another salient param, another principal, a later clock, a shorter ttl at open, a
 *   longer binding than the kept text), the sealer's own open and another instance's open (same
 *   ring, so the full path) agree: the same data, or the same rejection with the same logged reason,
 *   but for a token bound elsewhere, which its sealer logs other-request or other-principal (it
 *   remembers the binding) and another instance bad-mac;
 * - a refused token stays remembered, so a second refusal says why again;
 * - each open returns a new value: changing what one open returned does not reach the next;
 * - a round's token is forgotten once opened (its next open takes the full path, and still
 *   opens); a session-lived token (sealLongLived) is kept for every open;
 * - a token is forgotten once a newer one takes its slot (chosen by its MAC); it still opens, by
 *   the full path; at most RECENT_SEALS are kept, none longer than RECENT_SEAL_CHARS;
 * - only the exact token is answered from memory: a token whose payload changed under the same
 *   MAC is refused by the full path (bad-mac).
 */
// The module object itself (not an import-star copy), so that spies replace what the sealer calls.
import nodeCrypto = require("node:crypto");
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { MemoryLogger, SilentLogger } from "../../../src/testing/index";
import { McpError } from "../../../src/protocol/errors";
import type { StateBinding } from "../../../src/protocol/request-context";
import { deepFreeze } from "../../../src/protocol/deep-freeze";
import { StateSealer } from "../../../src/state/state-sealer";
import { RECENT_SEAL_CHARS, RECENT_SEALS, RecentSeals, slotOf, type RecentSeal } from "../../../src/state/recent-seals";

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

/** Counts the crypto.createHmac and crypto.hash calls made while `run` runs. */
function cryptoDuring(run: () => unknown): number {
  const hmac = jest.spyOn(nodeCrypto, "createHmac");
  const hash = jest.spyOn(nodeCrypto, "hash");
  try {
    run();
    return hmac.mock.calls.length + hash.mock.calls.length;
  } finally {
    hmac.mockRestore();
    hash.mockRestore();
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
          // The same verdict; why a token is bound elsewhere only its sealer can say (another
          // instance logs bad-mac).
          const precise = { param: "other-request", principal: "other-principal" } as Partial<Record<Change, string>>;
          expect(results[1]).toEqual(precise[change] === undefined ? results[0] : { rejected: ["bad-mac"] });
          if (precise[change] !== undefined) expect(results[0]).toEqual({ rejected: [precise[change]] });
          if (change === "none" || change === "unbound-fields") expect(results[0]).toEqual({ opened: JSON.parse(JSON.stringify(data)) });
          if (change === "param" || change === "principal" || change === "later") expect(results[0]).toHaveProperty("rejected");
          if (change === "shorter-ttl" && ttl > 1) expect(results[0]).toEqual({ rejected: ["lifetime-exceeds-ttl"] });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("opens its own token without a MAC or a hash, and each open gives a new value", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const token = sealer.sealLongLived({ answers: { city: "Lyon" } }, ctx, "alice", 3600);
    let first: { answers: { city: string } } | undefined;
    expect(cryptoDuring(() => (first = sealer.openLongLived(token, ctx, "alice", 3600) as typeof first))).toBe(0);
    first!.answers.city = "changed";
    expect(sealer.openLongLived(token, request({ city: "Lyon" }), "alice", 3600)).toEqual({ answers: { city: "Lyon" } });
  });

  it("forgets a round's token once opened, and keeps a session-lived one", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const round = sealer.seal({ step: 1 }, ctx, { principal: "alice" });
    expect(cryptoDuring(() => expect(sealer.open(round, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(0);
    // Forgotten: the same token opens again, by the full path (one HMAC; the digest was made at seal).
    expect(cryptoDuring(() => expect(sealer.open(round, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(1);
    const session = sealer.sealLongLived({ session: 1 }, ctx, "alice", 3600);
    for (let i = 0; i < 3; i++) {
      expect(
        cryptoDuring(() => expect(sealer.openLongLived(session, request({ city: "Lyon" }), "alice", 3600)).toEqual({ session: 1 })),
      ).toBe(0);
    }
  });

  it("keeps a refused token, so a second refusal says why again, and forgets it once opened", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ secret: SECRET }, logger);
    const ctx = request({ city: "Lyon" });
    const token = sealer.seal({ step: 1 }, ctx, { principal: "alice" });
    for (const [openCtx, principal] of [
      [request({ city: "Paris" }), "alice"],
      [ctx, "bob"],
      [request({ city: "Paris" }), "bob"],
    ] as const) {
      expect(outcomeOf(logger, () => sealer.open(token, openCtx, { principal }))).toHaveProperty("rejected");
    }
    expect(logger.entries.map((entry) => entry.fields?.reason)).toEqual(["other-request", "other-principal", "other-request"]);
    expect(cryptoDuring(() => expect(sealer.open(token, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(0);
    expect(cryptoDuring(() => expect(sealer.open(token, ctx, { principal: "alice" })).toEqual({ step: 1 }))).toBe(1);
  });

  it("forgets a token whose slot a newer one took, which then opens by the full path", () => {
    const sealer = new StateSealer({ secret: SECRET }, new SilentLogger());
    const ctx = request({ city: "Lyon" });
    const first = sealer.seal({ i: 0 }, ctx, { principal: null });
    let i = 1;
    let newer = sealer.seal({ i }, ctx, { principal: null });
    while (slotOf(newer) !== slotOf(first)) newer = sealer.seal({ i: ++i }, ctx, { principal: null });
    expect(cryptoDuring(() => expect(sealer.open(first, ctx, { principal: null })).toEqual({ i: 0 }))).toBe(1);
    expect(cryptoDuring(() => expect(sealer.open(newer, ctx, { principal: null })).toEqual({ i }))).toBe(0);
  });

  it("keeps at most RECENT_SEALS tokens, none over RECENT_SEAL_CHARS, and answers only the exact token", () => {
    const recent = new RecentSeals();
    const seal = (token: string, body = "x"): RecentSeal => ({
      token,
      text: "[]",
      digest: "d",
      principal: "null",
      issued: 1,
      expires: 2,
      body,
    });
    for (let i = 0; i < RECENT_SEALS * 4; i++) recent.remember(seal(`rt3.k.p.${randomBytes(32).toString("base64url")}`));
    expect(recent.size).toBeGreaterThan(RECENT_SEALS / 2);
    expect(recent.size).toBeLessThanOrEqual(RECENT_SEALS);

    const mac = "m".repeat(43);
    // A token of `chars` characters with its text ("[]") and data ("b"): 6 + 1 + 43 around the payload.
    const tokenCounting = (chars: number) => `rt3.k.${"p".repeat(chars - 3 - 50)}.${mac}`;
    const fits = tokenCounting(RECENT_SEAL_CHARS);
    recent.remember(seal(fits, "b"));
    expect(recent.peek(fits)).toBeDefined();
    const over = tokenCounting(RECENT_SEAL_CHARS + 1);
    recent.remember(seal(over, "b"));
    expect(recent.peek(over)).toBeUndefined();
    // The same MAC behind another payload is not the token remembered.
    expect(recent.take(fits.replace("rt3.k.p", "rt3.k.q"))).toBeUndefined();
    expect(recent.take(fits)).toBeDefined();
    expect(recent.take(fits)).toBeUndefined();
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
