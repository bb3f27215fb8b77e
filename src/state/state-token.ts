import { createHash, hash } from "node:crypto";
import type { DerivedKey } from "./key-ring";
import { MESSAGE_START, messageBuffer } from "./hmac-sha256";

/**
 * The rt3 token format of `StateSealer`: `rt3.<keyId>.<payload>.<mac>`.
 *
 * - payload: base64url of the UTF-8 JSON array `[3, issued, expires, tags, data]`;
 * - mac: HMAC-SHA256 (key `mac`, see `hmac-sha256.ts`), base64url, over the bytes `LABEL ||
 *   keyId || \0 || digest || principal || \0 || P`, where `P` is the payload's bytes as they are
 *   (not its base64url text), `digest` the request's binding digest (`binding-digest.ts`, 43
 *   ASCII characters, computed once per request) and `principal` its JSON (`null` for
 *   anonymous). The binding is in the MAC but not in the token: the one HMAC both authenticates
 *   the token and checks what it is bound to.
 * - tags: 32 base64url characters, `r || p || c`, short keyed tags of the binding that `open`
 *   reads only when the MAC does not match, to log why (see `diagnose`).
 *
 * The separators are unambiguous: the key id is ASCII without NUL, the digest has a fixed
 * length, and JSON writes a NUL inside a string as `\u0000`. Since the MAC covers bytes, `open`
 * accepts only the one base64url text `seal` writes for them (no padding, no other alphabet, no
 * stray bits in the last character).
 */

/** Why a token with a MAC that does not match was refused. */
export type MismatchReason = "bad-mac" | "other-request" | "other-principal";

export const VERSION = 3;
export const PREFIX = `rt${VERSION}.`;
/** Characters of a base64url HMAC-SHA256. */
export const MAC_CHARS = 43;
/** Characters of the tags field: 12 (request) + 12 (principal) + 8 (check), i.e. 9 + 9 + 6 bytes. */
export const TAGS_CHARS = 32;

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
  let end = MESSAGE_START + buffer.write(header + head, MESSAGE_START, "utf8");
  const start = end - head.length;
  end += buffer.write(body, end, "utf8");
  buffer[end++] = 0x5d; // "]"
  const bytes = end - start;
  if (base64urlLength(bytes) > maxChars) return { tooLarge: bytes };
  const mac = key.mac.macOfBuffer(buffer, end - MESSAGE_START);
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
  const start = MESSAGE_START + buffer.write(header, MESSAGE_START, "utf8");
  if (buffer.write(payload, start, bytes, "base64url") !== bytes || !isCanonicalBase64url(payload)) return undefined;
  const authentic = equalText(mac, key.mac.macOfBuffer(buffer, start - MESSAGE_START + bytes));
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

/**
 * The tags of a binding, `r || p || c` (32 characters), from the request text (rt3: the binding
 * digest; rt2: the canonical request) and the principal's JSON:
 *
 * - r (9 bytes): tags the request, `T(request)`;
 * - p (9 bytes): tags the principal for this request, `T(r, principal)`, so that the same
 *   principal is not linkable across requests;
 * - c (6 bytes): `T(r, p)`, so that tags that were altered, or made under another key, are told
 *   from tags made by this key (only a key holder can make a matching c).
 *
 * `T` is a truncated secret-prefix SHA-256 under a tag key (43 characters, 256 bits), one label
 * per tag: `SHA-256(tagKey || \0 || label || \0 || input)` cut to at most 9 of its 32 bytes. That
 * is AMAC (Bellare, Bernstein and Tessaro, 2016), a PRF because the truncation hides the state a
 * length extension would need; it costs one `crypto.hash` call (no HMAC object) and is used only
 * to tell failures apart in the log. The security of the binding is the MAC's.
 */
export function tagsOf(tagKey: string, request: string, principal: string): string {
  const r = keyedTag(tagKey, "request", request, 12);
  const p = keyedTag(tagKey, "principal", `${r}\0${principal}`, 12);
  return `${r}${p}${keyedTag(tagKey, "check", `${r}${p}`, 8)}`;
}

/**
 * Why a well-formed token whose MAC does not match was refused, from `tags`, the token's fourth
 * payload field (anything, or undefined, when the payload is not what `seal` writes): tags this
 * key did not make mean `bad-mac` (tampered, or sealed with another secret); otherwise the first
 * part that differs from the binding presented, and `bad-mac` when both agree (the token was
 * changed after sealing).
 *
 * A diagnosis for the log, not a verdict: someone who copies the tags of another token into a
 * forged one gets `other-request` logged; the token is refused all the same.
 */
export function diagnose(tagKey: string, tags: unknown, request: string, principal: string): MismatchReason {
  if (typeof tags !== "string" || tags.length !== TAGS_CHARS) return "bad-mac";
  const r = tags.slice(0, 12);
  const p = tags.slice(12, 24);
  if (!equalText(tags.slice(24), keyedTag(tagKey, "check", `${r}${p}`, 8))) return "bad-mac";
  const expectedR = keyedTag(tagKey, "request", request, 12);
  if (!equalText(r, expectedR)) return "other-request";
  if (!equalText(p, keyedTag(tagKey, "principal", `${expectedR}\0${principal}`, 12))) return "other-principal";
  return "bad-mac";
}

/** The first `chars` base64url characters of `SHA-256(tagKey || \0 || label || \0 || input)`. */
function keyedTag(tagKey: string, label: string, input: string, chars: number): string {
  return sha256Base64url(`${tagKey}\0${label}\0${input}`).slice(0, chars);
}

/**
 * SHA-256 of a string's UTF-8 bytes, base64url: Node's one-shot `crypto.hash` (Node 20.12 and
 * later; it creates no Hash object), else `createHash`, which gives the same digest.
 */
export const sha256Base64url: (text: string) => string =
  typeof hash === "function"
    ? (text) => hash("sha256", text, "base64url")
    : (text) => createHash("sha256").update(text, "utf8").digest("base64url");

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

/**
 * Constant-time equality of `given` and `expected`, an ASCII text of at most 64 characters (a
 * MAC or a tag): every code unit is compared, with no branch on what they hold. A non-ASCII
 * character in `given` differs from every ASCII one. A loop over 43 code units costs far less
 * than writing both into buffers for `timingSafeEqual`, and is as constant in time.
 */
export function equalText(given: string, expected: string): boolean {
  const length = expected.length;
  if (given.length !== length || length > 64) return false;
  let difference = 0;
  for (let i = 0; i < length; i++) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}
