/*
 * Pins how StateSealer.open reads rt2 tokens, the format sealed before rt3, during a rolling
 * upgrade (tokens live at most 900 s; seal writes rt3 only). The tokens are fixtures sealed by the
 * rt2 sealer itself (fixtures/rt2-tokens.json, made at commit 5161629 before rt3 existed):
 * - they open for the same request (its params in any key order, `_meta` and the retry fields
 *   aside) and principal, named or anonymous, and with a key that no longer seals, with their data;
 * - they fail as they always did: another request, another principal or anonymous (all logged
 *   bad-mac: their tags, truncated secret-prefix SHA-256, are no longer computed); expiry; a
 *   lifetime over the ttl given to open; a flipped payload or MAC character (bad-mac); their key
 *   gone (unknown-key);
 * - their binding is checked before their lifetime, as rt2 always did;
 * - an rt2 token's MAC cannot be replayed under the rt3 prefix, nor an rt3 one under rt2 (bad-mac).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MemoryLogger } from "../../../src/testing/index";
import type { StateBinding } from "../../../src/protocol/request-context";
import type { JsonObject } from "../../../src/protocol/wire-types";
import { StateSealer } from "../../../src/state/state-sealer";
import { rejectionOf } from "../../support/state-rejection";

interface Fixtures {
  nowMs: number;
  keys: { id: string; secret: string }[];
  ctx: { requestMethod: string; requestParams: JsonObject };
  data: unknown;
  tokens: { named: string; anonymousTtl900: string; byK1: string };
}
const FIXTURES = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "rt2-tokens.json"), "utf8")) as Fixtures;
const { tokens: TOKENS, ctx: CTX, data: DATA } = FIXTURES;

function makeSealer(keys = FIXTURES.keys) {
  const clock = { ms: FIXTURES.nowMs };
  const logger = new MemoryLogger();
  return { sealer: new StateSealer({ keys, now: () => clock.ms }, logger), logger, clock };
}

function reasonOf(logger: MemoryLogger, open: () => unknown): unknown {
  rejectionOf(open);
  return logger.entries[logger.entries.length - 1]?.fields?.reason;
}

/** The same request as CTX: its params' keys in reverse order, other `_meta` and retry fields. */
function sameRequestReordered(): StateBinding {
  const params = Object.fromEntries(Object.entries(CTX.requestParams).reverse()) as JsonObject;
  return {
    requestMethod: CTX.requestMethod,
    requestParams: { ...params, _meta: { progressToken: 2 }, inputResponses: {}, requestState: "x" },
  };
}

describe("StateSealer reading rt2 tokens sealed by the previous release", () => {
  it("opens them for the same request and principal, named and anonymous, with a key that no longer seals", () => {
    const { sealer, logger } = makeSealer();
    expect(TOKENS.named).toMatch(/^rt2\.k2\./);
    expect(sealer.open(TOKENS.named, CTX, { principal: "alice" })).toEqual(DATA);
    expect(sealer.open(TOKENS.named, sameRequestReordered(), { principal: "alice" })).toEqual(DATA);
    expect(sealer.open(TOKENS.anonymousTtl900, CTX, { principal: null, ttl: 900 })).toEqual(DATA);
    expect(sealer.open(TOKENS.byK1, CTX, { principal: "alice" })).toEqual(DATA);
    expect(makeSealer([FIXTURES.keys[1]!]).sealer.open(TOKENS.byK1, CTX, { principal: "alice" })).toEqual(DATA);
    expect(logger.entries).toEqual([]);
  });

  it("refuses them for another request or principal", () => {
    const { sealer, logger } = makeSealer();
    const args = CTX.requestParams.arguments as JsonObject;
    const other: StateBinding = {
      requestMethod: CTX.requestMethod,
      requestParams: { ...CTX.requestParams, arguments: { ...args, nights: 4 } },
    };
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, other, { principal: "alice" }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, { ...CTX, requestMethod: "prompts/get" }, { principal: "alice" }))).toBe(
      "bad-mac",
    );
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, CTX, { principal: "bob" }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, CTX, { principal: null }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(TOKENS.anonymousTtl900, CTX, { principal: "alice", ttl: 900 }))).toBe("bad-mac");
  });

  it("refuses them once expired, or when they live longer than the ttl given to open, binding first", () => {
    const { sealer, logger, clock } = makeSealer();
    expect(reasonOf(logger, () => sealer.open(TOKENS.anonymousTtl900, CTX, { principal: null }))).toBe("lifetime-exceeds-ttl");
    clock.ms += 299_000;
    expect(sealer.open(TOKENS.named, CTX, { principal: "alice" })).toEqual(DATA);
    clock.ms += 1_000;
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, CTX, { principal: "alice" }))).toBe("expired");
    expect(reasonOf(logger, () => sealer.open(TOKENS.named, CTX, { principal: "bob" }))).toBe("bad-mac");
  });

  it("refuses them tampered, replayed under the rt3 prefix, or with their key gone", () => {
    const { sealer, logger } = makeSealer();
    const token = TOKENS.named;
    const at = token.indexOf(".", 4) + 5;
    const flipped = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    expect(reasonOf(logger, () => sealer.open(flipped, CTX, { principal: "alice" }))).toBe("bad-mac");
    const mac = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(reasonOf(logger, () => sealer.open(mac, CTX, { principal: "alice" }))).toBe("bad-mac");
    expect(reasonOf(logger, () => sealer.open(token.replace(/^rt2\./, "rt3."), CTX, { principal: "alice" }))).toBe("bad-mac");
    const rt3 = sealer.seal(DATA, CTX, { principal: "alice" });
    expect(reasonOf(logger, () => sealer.open(rt3.replace(/^rt3\./, "rt2."), CTX, { principal: "alice" }))).toBe("bad-mac");
    const rotated = makeSealer([FIXTURES.keys[1]!]);
    expect(reasonOf(rotated.logger, () => rotated.sealer.open(token, CTX, { principal: "alice" }))).toBe("unknown-key");
  });
});
