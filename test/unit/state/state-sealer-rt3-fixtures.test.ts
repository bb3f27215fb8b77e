/*
 * Pins that the rt3 wire did not change when the sealer's hand-written HMAC-SHA256 and
 * constant-time compare gave way to node:crypto's createHmac and timingSafeEqual. The tokens are
 * fixtures sealed by the hand-written sealer itself (fixtures/rt3-tokens.json, made at commit
 * 84469b5: 83 cases of generated data, params, principals (named, anonymous, any Unicode),
 * lifetimes and ring keys, plus Unicode, NUL and a 9 KB payload):
 * - every one opens with this sealer, for its request and principal, with its data (sealed before,
 *   open after: the MAC recomputed by createHmac over the same bytes matches);
 * - sealing its payload again (its own tags kept) gives exactly its payload and MAC, byte for byte;
 * - what changed is only the tags field, empty now: a new seal of the same data, binding and clock
 *   is the fixture's payload without those 32 characters (and so has another MAC);
 * - a fixture token presented for another principal is refused, logged bad-mac: its tags are no
 *   longer read.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import type { JsonValue } from "../../../src/protocol/canonical-json";
import { bindingDigestOf } from "../../../src/state/binding-digest";
import { KeyRing } from "../../../src/state/key-ring";
import { StateSealer } from "../../../src/state/state-sealer";
import { sealPayload } from "../../../src/state/state-token";
import { rejectionOf } from "../../support/state-rejection";

interface Case {
  ctx: StateBinding;
  principal: string | null;
  ttl: number;
  data: JsonValue;
  token: string;
}
interface Fixtures {
  nowMs: number;
  keys: { id: string; secret: string }[];
  cases: Case[];
}
const FIXTURES = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "rt3-tokens.json"), "utf8")) as Fixtures;
const RING = KeyRing.fromKeys(FIXTURES.keys, "test");

function partsOf(token: string) {
  const [prefix, keyId, payload, mac] = token.split(".") as [string, string, string, string];
  return { prefix, keyId, payload, mac, fields: JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[] };
}

describe("rt3 tokens sealed by the hand-written HMAC", () => {
  it("has the cases it says", () => {
    expect(FIXTURES.cases).toHaveLength(83);
    expect(new Set(FIXTURES.cases.map((c) => partsOf(c.token).keyId))).toEqual(new Set(["k1", "k2"]));
    expect(FIXTURES.cases.some((c) => c.principal === null)).toBe(true);
  });

  it("open with this sealer, for their request and principal, with their data", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ keys: FIXTURES.keys, now: () => FIXTURES.nowMs }, logger);
    for (const c of FIXTURES.cases) expect(sealer.open(c.token, c.ctx, { principal: c.principal, ttl: c.ttl })).toEqual(c.data);
    expect(logger.entries).toEqual([]);
  });

  it("are sealed again byte for byte from their payload (their own tags kept)", () => {
    for (const c of FIXTURES.cases) {
      const { keyId, payload, mac, fields } = partsOf(c.token);
      const [version, issued, expires, tags] = fields as [number, number, number, string];
      const head = `[${version},${issued},${expires},${JSON.stringify(tags)},`;
      const sealed = sealPayload(
        RING.find(keyId)!,
        bindingDigestOf(c.ctx),
        JSON.stringify(c.principal),
        head,
        JSON.stringify(c.data),
        16_000,
      );
      expect(sealed).toEqual({ payload, mac });
    }
  });

  it("differ from a new seal only in the tags, empty now (and so in the MAC)", () => {
    const sealer = new StateSealer({ keys: FIXTURES.keys, now: () => FIXTURES.nowMs }, new MemoryLogger());
    const ring = new StateSealer({ keys: [FIXTURES.keys[1]!], now: () => FIXTURES.nowMs }, new MemoryLogger());
    for (const c of FIXTURES.cases) {
      const old = partsOf(c.token);
      const fresh = partsOf((old.keyId === "k2" ? sealer : ring).seal(c.data, c.ctx, { principal: c.principal, ttl: c.ttl }));
      expect(fresh.prefix).toBe(old.prefix);
      expect(fresh.keyId).toBe(old.keyId);
      expect(old.fields[3]).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(fresh.fields).toEqual([...old.fields.slice(0, 3), "", old.fields[4]]);
      expect(Buffer.byteLength(fresh.payload, "base64url")).toBe(Buffer.byteLength(old.payload, "base64url") - 32);
    }
  });

  it("are refused for another principal, logged bad-mac (their tags are not read)", () => {
    const logger = new MemoryLogger();
    const sealer = new StateSealer({ keys: FIXTURES.keys, now: () => FIXTURES.nowMs }, logger);
    const named = FIXTURES.cases.find((c) => c.principal !== null)!;
    rejectionOf(() => sealer.open(named.token, named.ctx, { principal: null, ttl: named.ttl }));
    expect(logger.entries.map((entry) => entry.fields?.reason)).toEqual(["bad-mac"]);
  });
});
