import { createHash, hash, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../protocol/canonical-json";
import type { StateBinding } from "../protocol/request-context";
import type { DerivedKey } from "./key-ring";

/**
 * The rt2 token format of `StateSealer`: `rt2.<keyId>.<payload>.<mac>`.
 *
 * - payload: base64url of the JSON array `[2, issued, expires, tags, data]`;
 * - mac: HMAC-SHA256 (key `mac`, see `hmac-sha256.ts`), base64url, over `LABEL || signed || \0 ||
 *   request || \0 || principal`, where `signed` is the token text before the MAC and `request`
 *   and `principal` the canonical binding (`bindingOf`). The binding is in the MAC but not in the
 *   token: the one HMAC both authenticates the token and checks what it is bound to.
 * - tags: 32 base64url characters, `r || p || c`, short keyed tags of the binding that `open`
 *   reads only when the MAC does not match, to log why (see `diagnose`).
 *
 * The separators are unambiguous: `signed` is ASCII without NUL, and canonical JSON writes a NUL
 * inside a string as `\u0000`.
 */

/** What a token is bound to, as canonical text; computed once per seal or open. */
export interface Binding {
  /** `canonicalJson([method, salient params])`. */
  readonly request: string;
  /** `canonicalJson(principal)`: a JSON string, or `null` for anonymous. */
  readonly principal: string;
}

/** Why a token with a MAC that does not match was refused. */
export type MismatchReason = "bad-mac" | "other-request" | "other-principal";

export const VERSION = 2;
export const PREFIX = `rt${VERSION}.`;
/** Characters of a base64url HMAC-SHA256. */
export const MAC_CHARS = 43;
/** Characters of the tags field: 12 (request) + 12 (principal) + 8 (check), i.e. 9 + 9 + 6 bytes. */
export const TAGS_CHARS = 32;

const MAC_LABEL = "roundtrip-mcp/state/token/v2\0";
/** Top-level params that change between rounds of the same request, so are not bound. */
const UNBOUND_PARAMS: ReadonlySet<string> = new Set(["_meta", "inputResponses", "requestState"]);

/** The binding of `ctx` and `principal`: one canonical JSON of the salient params. */
export function bindingOf(ctx: StateBinding, principal: string | null): Binding {
  const salient: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(ctx.requestParams)) {
    if (!UNBOUND_PARAMS.has(name)) salient[name] = ctx.requestParams[name];
  }
  // A principal is a string or null (checked by the sealer): JSON.stringify is its canonical JSON.
  return { request: canonicalJson([ctx.requestMethod, salient]), principal: JSON.stringify(principal) };
}

/** The MAC of an rt2 token: HMAC-SHA256 of its signed text and its binding, base64url. */
export function macOf(key: DerivedKey, signed: string, binding: Binding): string {
  return key.mac.mac(`${MAC_LABEL}${signed}\0${binding.request}\0${binding.principal}`);
}

/**
 * The tags of a binding, `r || p || c` (32 characters):
 *
 * - r (9 bytes): tags the request, `T(request)`;
 * - p (9 bytes): tags the principal for this request, `T(r, principal)`, so that the same
 *   principal is not linkable across requests;
 * - c (6 bytes): `T(r, p)`, so that tags that were altered, or made under another key, are told
 *   from tags made by this key (only a key holder can make a matching c).
 *
 * `T` is a truncated secret-prefix SHA-256 under the key's `tagKey` (43 characters, 256 bits),
 * one label per tag: `SHA-256(tagKey || \0 || label || \0 || input)` cut to at most 9 of its 32
 * bytes. That is AMAC (Bellare, Bernstein and Tessaro, 2016), a PRF because the truncation hides
 * the state a length extension would need; it costs one `crypto.hash` call (no HMAC object) and
 * is used only to tell failures apart in the log. The security of the binding is the MAC's.
 */
export function tagsOf(key: DerivedKey, binding: Binding): string {
  const r = keyedTag(key, "request", binding.request, 12);
  const p = keyedTag(key, "principal", `${r}\0${binding.principal}`, 12);
  return `${r}${p}${keyedTag(key, "check", `${r}${p}`, 8)}`;
}

/**
 * Why a well-formed rt2 token whose MAC does not match was refused, from `tags`, the token's
 * fourth payload field (anything, or undefined, when the payload is not what `seal` writes): tags
 * this key did not make mean `bad-mac` (tampered, or sealed with another secret); otherwise the
 * first part that differs from the binding presented, and `bad-mac` when both agree (the token
 * was changed after sealing).
 *
 * A diagnosis for the log, not a verdict: someone who copies the tags of another token into a
 * forged one gets `other-request` logged; the token is refused all the same.
 */
export function diagnose(key: DerivedKey, tags: unknown, binding: Binding): MismatchReason {
  if (typeof tags !== "string" || tags.length !== TAGS_CHARS) return "bad-mac";
  const r = tags.slice(0, 12);
  const p = tags.slice(12, 24);
  if (!equalText(tags.slice(24), keyedTag(key, "check", `${r}${p}`, 8))) return "bad-mac";
  const expectedR = keyedTag(key, "request", binding.request, 12);
  if (!equalText(r, expectedR)) return "other-request";
  if (!equalText(p, keyedTag(key, "principal", `${expectedR}\0${binding.principal}`, 12))) return "other-principal";
  return "bad-mac";
}

/** The first `chars` base64url characters of `SHA-256(tagKey || \0 || label || \0 || input)`. */
function keyedTag(key: DerivedKey, label: string, input: string, chars: number): string {
  return sha256Base64url(`${key.tagKey}\0${label}\0${input}`).slice(0, chars);
}

/**
 * SHA-256 of a string's UTF-8 bytes, base64url: Node's one-shot `crypto.hash` (Node 20.12 and
 * later; it creates no Hash object), else `createHash`, which gives the same digest.
 */
export const sha256Base64url: (text: string) => string =
  typeof hash === "function" ? (text) => hash("sha256", text, "base64url") : (text) => createHash("sha256").update(text, "utf8").digest("base64url");

/**
 * Scratch bytes of a payload being encoded or decoded. `seal` and `open` are synchronous, so one
 * buffer serves every sealer, and a payload costs no Buffer of its own. 16 KiB: a payload that
 * fits in a token is at most 12 KiB.
 */
const scratch = Buffer.allocUnsafe(16384);

/** base64url of the UTF-8 bytes of `json`, or undefined if that is longer than `maxChars`. */
export function encodePayload(json: string, maxChars: number): string | undefined {
  // A write that does not fit stops within 3 bytes of the end: over 21,000 characters of
  // base64url, more than any token may hold, so a cut-off payload is never returned.
  const bytes = scratch.write(json, 0, "utf8");
  if (base64urlLength(bytes) > maxChars) return undefined;
  return scratch.toString("base64url", 0, bytes);
}

/** The UTF-8 text of base64url `payload` (at most 16 KiB of text, so at most 12 KiB of bytes). */
export function decodeBase64url(payload: string): string {
  const bytes = scratch.write(payload, 0, "base64url");
  return scratch.toString("utf8", 0, bytes);
}

/** Characters of the unpadded base64url of `bytes` bytes. */
export function base64urlLength(bytes: number): number {
  return Math.floor(bytes / 3) * 4 + [0, 2, 3][bytes % 3];
}

const left = Buffer.alloc(64);
const right = Buffer.alloc(64);

/**
 * Constant-time equality of `given` and `expected`, an ASCII text of at most 64 characters (a
 * MAC or a tag), without allocating their bytes. `given` is written as UTF-8: a non-ASCII
 * character writes bytes over 0x7f, which no ASCII text has, or does not fit and leaves fewer
 * bytes written than expected; either way it can never pass for another character.
 */
export function equalText(given: string, expected: string): boolean {
  const length = expected.length;
  if (given.length !== length || length > left.length) return false;
  if (left.write(given, 0, length, "utf8") !== length) return false;
  right.write(expected, 0, length, "latin1");
  return timingSafeEqual(left.subarray(0, length), right.subarray(0, length));
}
