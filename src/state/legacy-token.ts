import { createHmac } from "node:crypto";
import type { DerivedKey } from "./key-ring";
import type { Binding } from "./rt2-token";
import { equalText } from "./state-token";

/**
 * The rt1 token format, which `open` still reads so that a rolling upgrade from a version that
 * sealed rt1 does not fail the rounds in flight (tokens live at most 900 seconds); nothing seals
 * it any more (nor rt2, see `rt2-token.ts`). To be removed in a later release.
 *
 * `rt1.<keyId>.<payload>.<mac>`: the payload is base64url JSON `[1, issued, expires, scope,
 * data]`, the MAC is HMAC-SHA256 over `"roundtrip-mcp/state/token/v1\0" || signed`, and the scope
 * `<request tag>.<principal tag>` is two more HMACs, of the canonical request and of the request
 * tag with the principal. The binding is checked after the lifetime, as it always was.
 */
export const LEGACY_VERSION = 1;

const MAC_LABEL = "roundtrip-mcp/state/token/v1\0";
const REQUEST_LABEL = "roundtrip-mcp/state/request/v1\0";
const PRINCIPAL_LABEL = "roundtrip-mcp/state/principal/v1\0";

/** The MAC of an rt1 token's signed text. */
export function legacyMacOf(key: DerivedKey, signed: string): string {
  return hmac(key.legacy.macKey, MAC_LABEL + signed);
}

/** Whether an authentic rt1 token's scope matches the binding presented; the reason if not. */
export function legacyScopeMismatch(key: DerivedKey, scope: string, binding: Binding): "other-request" | "other-principal" | undefined {
  const request = hmac(key.legacy.scopeKey, REQUEST_LABEL + binding.request);
  const bound = hmac(key.legacy.scopeKey, `${PRINCIPAL_LABEL}${request}\0${binding.principal}`);
  const dot = scope.indexOf(".");
  if (dot < 0 || !equalText(scope.slice(0, dot), request)) return "other-request";
  if (!equalText(scope.slice(dot + 1), bound)) return "other-principal";
  return undefined;
}

function hmac(key: Buffer, text: string): string {
  return createHmac("sha256", key).update(text, "utf8").digest("base64url");
}
