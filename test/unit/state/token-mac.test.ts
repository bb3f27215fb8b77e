/*
 * Pins token-mac.ts, the sealer's only crypto (node:crypto's createHmac and timingSafeEqual):
 * - hmacSha256 is createHmac's base64url digest of bytes, or of a string's UTF-8 bytes;
 * - sameMac says equal exactly when the texts are equal, for any given text against any base64url
 *   MAC or tag of up to 64 characters; a character whose low byte is the expected one's (U+0141
 *   against "A") differs, as does a lone surrogate, another length, or an expected text over 64;
 * - messageBuffer gives the shared scratch for a message that fits and a buffer of its own beyond.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { hmacSha256, messageBuffer, sameMac } from "../../../src/state/token-mac";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const mac = fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 64 });

describe("token-mac", () => {
  it("computes createHmac's base64url digest of bytes and of a string's UTF-8", () => {
    const key = Buffer.alloc(32, 7);
    for (const text of ["", "roundtrip", "café ☕ \u0000", "\ud800 lone"]) {
      const expected = createHmac("sha256", key).update(Buffer.from(text, "utf8")).digest("base64url");
      expect(hmacSha256(key, text)).toBe(expected);
      expect(hmacSha256(key, Buffer.from(text, "utf8"))).toBe(expected);
    }
  });

  it("compares a given text with a MAC exactly as === would", () => {
    fc.assert(
      fc.property(mac, fc.oneof(mac, fc.string({ unit: "binary", maxLength: 70 })), (expected, given) => {
        expect(sameMac(given, expected)).toBe(given === expected);
        expect(sameMac(expected, expected)).toBe(true);
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });

  it("refuses a character that only shares its low byte, a lone surrogate, another length, or a text over 64", () => {
    const expected = "A".repeat(43);
    expect(sameMac(`${"A".repeat(42)}\u0141`, expected)).toBe(false);
    expect(sameMac(`${"A".repeat(42)}\ud800`, expected)).toBe(false);
    expect(sameMac("A".repeat(42), expected)).toBe(false);
    expect(sameMac("A".repeat(65), "A".repeat(65))).toBe(false);
  });

  it("shares one scratch buffer for messages that fit, and gives a longer one its own", () => {
    expect(messageBuffer(10)).toBe(messageBuffer(64 * 1024));
    const own = messageBuffer(64 * 1024 + 1);
    expect(own).not.toBe(messageBuffer(10));
    expect(own.length).toBeGreaterThanOrEqual(64 * 1024 + 1);
  });
});
