import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { canonicalJson } from "../protocol/canonical-json";
import type { StateBinding } from "../protocol/request-context";
import type { DerivedKey } from "./key-ring";

const REQUEST_LABEL = "roundtrip-mcp/state/request/v1\0";
const PRINCIPAL_LABEL = "roundtrip-mcp/state/principal/v1\0";
/** Top-level params that change between rounds of the same request, so are not bound. */
const UNBOUND_PARAMS: ReadonlySet<string> = new Set(["_meta", "inputResponses", "requestState"]);
/** Most scopes a sealer remembers, and the longest canonical binding it remembers one for. */
const SCOPE_CACHE_ENTRIES = 1024;
const SCOPE_CACHE_MAX_CHARS = 4096;

/**
 * The scopes a sealer computed, by key id and canonical binding: the round that seals and the
 * retry that opens bind the same request and principal, so the second computation (two HMACs)
 * is a lookup. Bounded in entries and in binding length; it holds only what the sealer would
 * compute again for the same input, in this process's memory.
 */
export class ScopeCache {
  private readonly scopes = new Map<string, string>();

  scopeOf(key: DerivedKey, ctx: StateBinding, principal: string | null): string {
    const binding = bindingOf(ctx, principal);
    const cacheable = binding.request.length + binding.principal.length <= SCOPE_CACHE_MAX_CHARS;
    const cacheKey = cacheable ? `${key.id}\0${binding.principal}\0${binding.request}` : "";
    const known = cacheable ? this.scopes.get(cacheKey) : undefined;
    if (known !== undefined) return known;
    const scope = computeScope(key, binding);
    if (cacheable) {
      if (this.scopes.size >= SCOPE_CACHE_ENTRIES) this.scopes.clear();
      this.scopes.set(cacheKey, scope);
    }
    return scope;
  }
}

/**
 * `<request tag>.<principal tag>`: the request tag binds method and salient params; the principal
 * tag binds those and the principal. Two tags only so that the log can tell the two apart.
 */
function computeScope(key: DerivedKey, binding: Binding): string {
  const request = hmac(key.scopeKey, REQUEST_LABEL + binding.request);
  const bound = hmac(key.scopeKey, `${PRINCIPAL_LABEL}${request}\0${binding.principal}`);
  return `${request}.${bound}`;
}

/** What a scope binds, canonical: the method with the salient params, and the principal. */
interface Binding {
  readonly request: string;
  readonly principal: string;
}

function bindingOf(ctx: StateBinding, principal: string | null): Binding {
  const salient: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(ctx.requestParams)) {
    if (!UNBOUND_PARAMS.has(name)) salient[name] = ctx.requestParams[name];
  }
  return { request: canonicalJson([ctx.requestMethod, salient]), principal: canonicalJson(principal) };
}

/** Each derived key as a `KeyObject`, made once: an HMAC keyed by one skips importing the key bytes. */
const keyObjects = new WeakMap<Buffer, KeyObject>();
function keyObject(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (object === undefined) keyObjects.set(key, (object = createSecretKey(key)));
  return object;
}

/** HMAC-SHA256 of `text` (UTF-8) under `key`, base64url. */
export function hmac(key: Buffer, text: string): string {
  return createHmac("sha256", keyObject(key)).update(text, "utf8").digest("base64url");
}

