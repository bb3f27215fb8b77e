import { canonicalJson } from "../protocol/canonical-json";
import type { StateBinding } from "../protocol/request-context";
import { sha256Base64url } from "./state-token";

/** Top-level params that change between rounds of the same request, so are not bound. */
const UNBOUND_PARAMS: ReadonlySet<string> = new Set(["_meta", "inputResponses", "requestState"]);
const DIGEST_LABEL = "roundtrip-mcp/state/binding/v3\0";

/**
 * The last digests made, by params object, for params frozen all the way down (the framework's
 * request contexts): the open of a round and the seal of its next one share one digest. A few
 * slots, not a WeakMap: a WeakMap entry per request costs the garbage collector more than the
 * lookup saves, and a round's open and seal come close together. A params object that could
 * still change is digested at every call.
 */
const SLOTS = 8;
const slotParams: (object | undefined)[] = new Array<object | undefined>(SLOTS).fill(undefined);
const slotMethods: string[] = new Array<string>(SLOTS).fill("");
const slotDigests: string[] = new Array<string>(SLOTS).fill("");
let nextSlot = 0;

/** `canonicalJson([method, salient params])`: what a token is bound to, besides the principal. */
export function requestTextOf(ctx: StateBinding): string {
  return canonicalJson([ctx.requestMethod, salientParams(ctx)]);
}

/**
 * The binding digest of rt3: SHA-256 of a label and `requestTextOf(ctx)`, base64url (43
 * characters). Never in a token: the MAC covers it, and the tags are keyed tags of it.
 */
export function bindingDigestOf(ctx: StateBinding): string {
  const params = ctx.requestParams;
  const method = ctx.requestMethod;
  for (let i = 0; i < SLOTS; i++) {
    // Every slot below SLOTS holds a string (filled above), so the index is never a hole.
    if (slotParams[i] === params && slotMethods[i] === method) return slotDigests[i]!;
  }
  const salient = salientParams(ctx);
  const digest = sha256Base64url(`${DIGEST_LABEL}${canonicalJson([method, salient])}`);
  if (Object.isFrozen(params) && frozenThroughout(salient)) {
    slotParams[nextSlot] = params;
    slotMethods[nextSlot] = method;
    slotDigests[nextSlot] = digest;
    nextSlot = (nextSlot + 1) % SLOTS;
  }
  return digest;
}

function salientParams(ctx: StateBinding): Record<string, unknown> {
  const salient: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(ctx.requestParams)) {
    if (!UNBOUND_PARAMS.has(name)) salient[name] = ctx.requestParams[name];
  }
  return salient;
}

/** Whether every object and array inside `salient` (already checked to be plain JSON) is frozen. */
function frozenThroughout(salient: Record<string, unknown>): boolean {
  for (const name in salient) if (!frozen(salient[name])) return false;
  return true;
}

function frozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!frozen(value[i])) return false;
  } else {
    // Plain objects (canonicalJson checked them): for-in walks their own keys.
    for (const key in value) if (!frozen((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}
