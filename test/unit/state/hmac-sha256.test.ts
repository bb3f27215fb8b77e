/*
 * Pins HmacSha256 (the sealer's one MAC per seal and per open, from two one-shot hashes) to
 * node:crypto's createHmac: the same base64url digest for any key (shorter than, equal to and
 * longer than SHA-256's 64-byte block) and any text (any Unicode, lone surrogates included),
 * including texts too long for the scratch buffer, which take createHmac itself; and calls with
 * different keys in turn do not disturb each other (the scratch buffer is shared).
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { HmacSha256 } from "../../../src/state/hmac-sha256";

const reference = (key: Uint8Array, text: string) => createHmac("sha256", key).update(text, "utf8").digest("base64url");

describe("HmacSha256", () => {
  it("gives createHmac's digest for any key and text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 130 }), fc.string({ unit: "binary", maxLength: 300 }), (key, text) => {
        expect(new HmacSha256(Buffer.from(key)).mac(text)).toBe(reference(key, text));
      }),
      { seed: 20261201, numRuns: 500 },
    );
  });

  it("gives createHmac's digest at the block-size boundaries of the key", () => {
    for (const length of [0, 1, 31, 32, 63, 64, 65, 128]) {
      const key = Buffer.alloc(length, 0xa7);
      expect(new HmacSha256(key).mac("roundtrip")).toBe(reference(key, "roundtrip"));
    }
  });

  it("gives createHmac's digest for texts around and past the scratch buffer's size", () => {
    const key = Buffer.alloc(32, 3);
    const hmac = new HmacSha256(key);
    for (const text of ["a".repeat(64 * 1024), "a".repeat(64 * 1024 + 1), "é".repeat(22_000), "é".repeat(40_000), "€".repeat(30_000)]) {
      expect(hmac.mac(text)).toBe(reference(key, text));
    }
  });

  it("keeps keys apart when used in turn", () => {
    const keys = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const macs = keys.map((key) => new HmacSha256(key));
    for (let round = 0; round < 3; round++) {
      for (const [i, key] of keys.entries()) expect(macs[i]!.mac(`text ${round}`)).toBe(reference(key, `text ${round}`));
    }
  });
});
