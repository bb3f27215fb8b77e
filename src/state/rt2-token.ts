import { requestTextOf } from "./binding-digest";
import type { DerivedKey } from "./key-ring";
import type { StateBinding } from "../protocol/request-context";
import { decodeBase64url, parseFields } from "./state-token";
import { hmacSha256 } from "./token-mac";

/**
 * The rt2 token format, sealed by 0.1.0, which `open` still reads so that a rolling upgrade from
 * 0.1.0 does not fail the rounds in flight (tokens live at most 900 seconds); nothing seals it any
 * more. Deprecated: reading it goes in 0.3.0 (see CHANGELOG.md).
 *
 * `rt2.<keyId>.<payload>.<mac>`: the payload is base64url of the JSON array `[2, issued,
 * expires, tags, data]`; the MAC is HMAC-SHA256 (key `rt2.mac`), base64url, over `LABEL ||
 * signed || \0 || request || \0 || principal`, where `signed` is the token text before the MAC
 * and `request` and `principal` the canonical binding (`bindingOf`). Its tags were truncated
 * secret-prefix SHA-256 digests, which this version no longer computes: a refused rt2 token is
 * logged `bad-mac`, whatever part of its binding differed.
 */
export const RT2_VERSION = 2;

const MAC_LABEL = "roundtrip-mcp/state/token/v2\0";

/** What an rt2 token is bound to, as canonical text. */
export interface Binding {
  /** `canonicalJson([method, salient params])`. */
  readonly request: string;
  /** `JSON.stringify(principal)`: a JSON string, or `null` for anonymous. */
  readonly principal: string;
}

/** The binding of `ctx` and `principal` as rt2 binds it: canonical text. */
export function bindingOf(ctx: StateBinding, principal: string | null): Binding {
  // A principal is a string or null (checked by the sealer): JSON.stringify is its canonical JSON.
  return { request: requestTextOf(ctx), principal: JSON.stringify(principal) };
}

/** The MAC of an rt2 token: HMAC-SHA256 of its signed text and its binding, base64url. */
export function rt2MacOf(key: DerivedKey, signed: string, binding: Binding): string {
  return hmacSha256(key.rt2.mac, `${MAC_LABEL}${signed}\0${binding.request}\0${binding.principal}`);
}

/** The JSON array an rt2 payload holds, or undefined if it is not base64url JSON of an array. */
export function decodeRt2Payload(payload: string): unknown[] | undefined {
  return parseFields(decodeBase64url(payload));
}
