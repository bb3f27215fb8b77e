import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The sealer's MACs and their comparison, through node:crypto alone: `createHmac` computes every
 * HMAC-SHA256 and `timingSafeEqual` compares every MAC and tag (no hand-written HMAC or compare
 * in src/: `test/unit/architecture/no-hand-rolled-crypto.test.ts` and the lint rule it checks keep
 * it so).
 */

/** Longest message written into the shared scratch buffer; a longer one gets a buffer of its own. */
const SCRATCH_BYTES = 64 * 1024;
/** Message bytes being MACed: seal and open are synchronous, so one buffer serves every sealer. */
const scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

/**
 * A buffer to write a message of at most `bytes` bytes into, from its start: the shared scratch
 * when they fit, else a new one. Valid until the next call.
 */
export function messageBuffer(bytes: number): Buffer {
  return bytes <= SCRATCH_BYTES ? scratch : Buffer.allocUnsafe(bytes);
}

/** base64url HMAC-SHA256 under `key` of `message`: bytes, or a string's UTF-8 bytes. */
export function hmacSha256(key: Buffer, message: Buffer | string): string {
  return createHmac("sha256", key).update(message).digest("base64url");
}

/** Longest text `sameMac` compares: a MAC (43 characters) or a tag. */
const MAX_MAC_CHARS = 64;
const givenBytes = Buffer.alloc(MAX_MAC_CHARS * 3);
const expectedBytes = Buffer.alloc(MAX_MAC_CHARS);

/**
 * Whether `given` (from a token: any text) is `expected` (a MAC or tag this process computed:
 * base64url, at most 64 characters), compared with `timingSafeEqual` over their UTF-8 bytes, so
 * the time taken tells nothing about where they differ. A non-ASCII character in `given` writes
 * more bytes than `expected` has, which differs.
 */
export function sameMac(given: string, expected: string): boolean {
  const length = expected.length;
  if (given.length !== length || length > MAX_MAC_CHARS) return false;
  expectedBytes.write(expected, 0, "latin1");
  if (givenBytes.write(given, 0, "utf8") !== length) return false;
  return timingSafeEqual(givenBytes.subarray(0, length), expectedBytes.subarray(0, length));
}
