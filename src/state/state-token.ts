import type { DerivedKey } from "./key-ring";
import { hmacSha256, messageBuffer, sameMac } from "./token-mac";

/**
 * The rt3 token format of `StateSealer`: `rt3.<keyId>.<payload>.<mac>`.
 *
 * - payload: base64url of the UTF-8 JSON array `[3, issued, expires, tags, data]`, `tags` the
 *   empty string (see below);
 * - mac: HMAC-SHA256 (key `mac`, `createHmac`), base64url, over the bytes `LABEL ||
 *   keyId || \0 || digest || principal || \0 || P`, where `P` is the payload's bytes as they are
 *   (not its base64url text), `digest` the request's binding digest (`binding-digest.ts`, 43
 *   ASCII characters, computed once per request) and `principal` its JSON (`null` for
 *   anonymous). The binding is in the MAC but not in the token: the one HMAC both authenticates
 *   the token and checks what it is bound to.
 * - tags: "". Tokens sealed before 0.2.0 carry 32 characters there, short keyed tags of the
 *   binding that `open` read when the MAC did not match, to log why; they were truncated
 *   secret-prefixed SHA-256 digests, and as truncated HMACs they would have cost three more
 *   `createHmac` per seal (7 to 8 µs, `npm run bench:sealer`), so they went (issue 41). `open`
 *   ignores the field; the sealer tells why a token it made itself was refused from what it
 *   remembers of it (`recent-seals.ts`). The field stays so that an instance of the previous
 *   version, which requires a string there, still opens these tokens during a rolling upgrade.
 *
 * The separators are unambiguous: the key id is ASCII without NUL, the digest has a fixed
 * length, and JSON writes a NUL inside a string as `\u0000`. Since the MAC covers bytes, `open`
 * accepts only the one base64url text `seal` writes for them (no padding, no other alphabet, no
 * stray bits in the last character).
 */

export const VERSION = 3;
export const PREFIX = `rt${VERSION}.`;
/** Characters of a base64url HMAC-SHA256. */
export const MAC_CHARS = 43;

const MAC_LABEL = "roundtrip-mcp/state/token/v3\0";

/** The text the MAC covers before the payload's bytes. */
function macHeader(keyId: string, digest: string, principal: string): string {
  return `${MAC_LABEL}${keyId}\0${digest}${principal}\0`;
}

/**
 * Seals the payload `head || body || "]"` (its JSON text, written in three parts so that it is
 * never copied into one string): its base64url and its MAC, or its size in bytes when the
 * base64url would be longer than `maxChars`.
 */
export function sealPayload(
  key: DerivedKey,
  digest: string,
  principal: string,
  head: string,
  body: string,
  maxChars: number,
): { payload: string; mac: string } | { tooLarge: number } {
  const maxBytes = Math.floor(maxChars / 4) * 3 + 2;
  const units = head.length + body.length + 1;
  // A UTF-16 code unit is at least 1 and at most 3 UTF-8 bytes.
  if (units > maxBytes) return { tooLarge: Buffer.byteLength(head, "utf8") + Buffer.byteLength(body, "utf8") + 1 };
  const header = macHeader(key.id, digest, principal);
  const buffer = messageBuffer((header.length + units) * 3);
  // One write for the MAC's header and the payload's head: the head is ASCII (numbers and tags),
  // so the payload starts its length before where the write ended.
  let end = buffer.write(header + head, 0, "utf8");
  const start = end - head.length;
  end += buffer.write(body, end, "utf8");
  buffer[end++] = 0x5d; // "]"
  const bytes = end - start;
  if (base64urlLength(bytes) > maxChars) return { tooLarge: bytes };
  const mac = hmacSha256(key.mac, buffer.subarray(0, end));
  return { payload: buffer.toString("base64url", start, end), mac };
}

/**
 * Opens a payload: whether `mac` is its MAC for this binding, and its bytes as UTF-8 text; or
 * undefined when the base64url is not the one `seal` writes for its bytes (the MAC is then not
 * checked: the token was changed).
 */
export function openPayload(
  key: DerivedKey,
  digest: string,
  principal: string,
  payload: string,
  mac: string,
): { authentic: boolean; json: string } | undefined {
  if (payload.length % 4 === 1) return undefined;
  // A tail of 2 or 3 characters holds 1 or 2 bytes (a tail of 1 was refused above).
  const bytes = Math.floor(payload.length / 4) * 3 + Math.max(0, (payload.length % 4) - 1);
  const header = macHeader(key.id, digest, principal);
  const buffer = messageBuffer(header.length * 3 + bytes);
  const start = buffer.write(header, 0, "utf8");
  if (buffer.write(payload, start, bytes, "base64url") !== bytes || !isCanonicalBase64url(payload)) return undefined;
  const authentic = sameMac(mac, hmacSha256(key.mac, buffer.subarray(0, start + bytes)));
  return { authentic, json: buffer.toString("utf8", start, start + bytes) };
}

/**
 * Whether `payload`, which Node's decoder read as exactly the bytes its length calls for, is the
 * one text `seal` writes for them, so that only that text opens (the MAC covers the bytes).
 * Node's decoder skips ASCII characters outside the alphabet (then fewer bytes come out, refused
 * above), but reads `+` and `/` as `-` and `_`, a character above 0x7f by its low byte, and
 * ignores the stray low bits of the last character: those are refused here. Cheaper than
 * encoding the bytes again to compare.
 */
function isCanonicalBase64url(payload: string): boolean {
  if (payload.indexOf("+") !== -1 || payload.indexOf("/") !== -1 || Buffer.byteLength(payload, "utf8") !== payload.length) return false;
  const tail = payload.length % 4;
  if (tail === 0) return true;
  // 2 characters hold 1 byte (4 stray bits), 3 hold 2 bytes (2 stray bits).
  // ASCII was checked above, so the code is in the table; a miss (never) refuses.
  return ((SEXTET[payload.charCodeAt(payload.length - 1)] ?? 0xff) & (tail === 2 ? 0x0f : 0x03)) === 0;
}

/** The 6-bit value of each base64url character code (0 for the others, which never reach it). */
const SEXTET = new Uint8Array(128);
for (let i = 0; i < 64; i++) SEXTET["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".charCodeAt(i)] = i;

/** The JSON array a payload's text holds, or undefined if it is not JSON of an array. */
export function parseFields(json: string): unknown[] | undefined {
  try {
    const fields: unknown = JSON.parse(json);
    return Array.isArray(fields) ? fields : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Scratch bytes of an older payload being decoded. `open` is synchronous, so one buffer serves
 * every sealer. 16 KiB: a payload that fits in a token is at most 12 KiB.
 */
const scratch = Buffer.allocUnsafe(16384);

/** The UTF-8 text of base64url `payload` (at most 16 KiB of text, so at most 12 KiB of bytes). */
export function decodeBase64url(payload: string): string {
  const bytes = scratch.write(payload, 0, "base64url");
  return scratch.toString("utf8", 0, bytes);
}

/** Characters of the unpadded base64url of `bytes` bytes. */
export function base64urlLength(bytes: number): number {
  const tail = bytes % 3;
  return Math.floor(bytes / 3) * 4 + (tail === 0 ? 0 : tail + 1);
}
