import { requestTextOf } from "./binding-digest";
import type { DerivedKey } from "./key-ring";
import type { StateBinding } from "../protocol/request-context";
import { decodeBase64url, parseFields } from "./state-token";

/**
 * The rt2 token format, which `open` still reads so that a rolling upgrade from a version that
 * sealed rt2 does not fail the rounds in flight (tokens live at most 900 seconds); nothing seals
 * it any more. To be removed in a later release.
 *
 * `rt2.<keyId>.<payload>.<mac>`: the payload is base64url of the JSON array `[2, issued,
 * expires, tags, data]`; the MAC is HMAC-SHA256 (key `rt2.mac`), base64url, over `LABEL ||
 * signed || \0 || request || \0 || principal`, where `signed` is the token text before the MAC
 * and `request` and `principal` the canonical binding (`bindingOf`). The tags are those of rt3
 * (`tagsOf`) over the canonical request text, under `rt2.tagKey`.
 */
export const RT2_VERSION = 2;

const MAC_LABEL = "roundtrip-mcp/state/token/v2\0";

/** What an rt2 or rt1 token is bound to, as canonical text. */
export interface Binding {
  /** `canonicalJson([method, salient params])`. */
  readonly request: string;
  /** `JSON.stringify(principal)`: a JSON string, or `null` for anonymous. */
  readonly principal: string;
}

/** The binding of `ctx` and `principal` as the older formats bind it: canonical text. */
export function bindingOf(ctx: StateBinding, principal: string | null): Binding {
  // A principal is a string or null (checked by the sealer): JSON.stringify is its canonical JSON.
  return { request: requestTextOf(ctx), principal: JSON.stringify(principal) };
}

/** The MAC of an rt2 token: HMAC-SHA256 of its signed text and its binding, base64url. */
export function rt2MacOf(key: DerivedKey, signed: string, binding: Binding): string {
  return key.rt2.mac.mac(`${MAC_LABEL}${signed}\0${binding.request}\0${binding.principal}`);
}

/** The JSON array an rt2 payload holds, or undefined if it is not base64url JSON of an array. */
export function decodeRt2Payload(payload: string): unknown[] | undefined {
  return parseFields(decodeBase64url(payload));
}
