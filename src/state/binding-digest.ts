import { createHash, hash } from "node:crypto";
import { canonicalJson, type FrozenWalk, quoteJson, sortedKeys, writeCanonicalFast } from "../protocol/canonical-json";
import type { StateBinding } from "../protocol/request-context";

/** Top-level params that change between rounds of the same request, so are not bound. */
const UNBOUND_PARAMS: ReadonlySet<string> = new Set(["_meta", "inputResponses", "requestState"]);
const DIGEST_LABEL = "roundtrip-mcp/state/binding/v3\0";

/**
 * The last bindings made, by params object, for params frozen all the way down (the framework's
 * request contexts): the open of a round and the seal of its next one share one text and one
 * digest. A few slots, not a WeakMap: a WeakMap entry per request costs the garbage collector more
 * than the lookup saves, and a round's open and seal come close together. A params object that
 * could still change is written again at every call. A slot's digest is made on first use ("" until
 * then: an open the sealer answers from its recent seals compares the text and needs no digest); a
 * text longer than `KEPT_TEXT_CHARS` is not kept ("": such a binding is compared by its digest).
 */
const SLOTS = 8;
export const KEPT_TEXT_CHARS = 2048;
const slotParams: (object | undefined)[] = new Array<object | undefined>(SLOTS).fill(undefined);
const slotMethods: string[] = new Array<string>(SLOTS).fill("");
const slotTexts: string[] = new Array<string>(SLOTS).fill("");
const slotDigests: string[] = new Array<string>(SLOTS).fill("");
let nextSlot = 0;

/** Whether every object the last `write` went through was frozen (set by `write`, read right after). */
let allFrozen = true;
/** The text the last `bindingDigestOf` digested, or "" when longer than `KEPT_TEXT_CHARS`. */
let lastText = "";

/** `canonicalJson([method, salient params])`: what a token is bound to, besides the principal. */
export function requestTextOf(ctx: StateBinding): string {
  return writeRequest(ctx.requestMethod, ctx.requestParams);
}

/** The slot holding `ctx`'s binding, or -1. */
function slotOf(ctx: StateBinding): number {
  const params = ctx.requestParams;
  const method = ctx.requestMethod;
  for (let i = 0; i < SLOTS; i++) if (slotParams[i] === params && slotMethods[i] === method) return i;
  return -1;
}

/**
 * `requestTextOf(ctx)`, kept in a slot (its digest not made) when the params are frozen all the
 * way down and the text is at most `KEPT_TEXT_CHARS` long.
 */
export function bindingTextOf(ctx: StateBinding): string {
  const slot = slotOf(ctx);
  // Every slot below SLOTS holds a string (filled above), so the index is never a hole.
  if (slot >= 0 && slotTexts[slot] !== "") return slotTexts[slot]!;
  const text = writeRequest(ctx.requestMethod, ctx.requestParams);
  if (slot < 0 && allFrozen && text.length <= KEPT_TEXT_CHARS) keep(ctx, text, "");
  return text;
}

/**
 * The binding digest of rt3: SHA-256 of a label and `requestTextOf(ctx)`, base64url (43
 * characters). Never in a token: the MAC covers it.
 * `lastBindingText()` is then the text it digested (or "", for a text over `KEPT_TEXT_CHARS`).
 */
export function bindingDigestOf(ctx: StateBinding): string {
  const slot = slotOf(ctx);
  if (slot >= 0 && slotDigests[slot] !== "") {
    lastText = slotTexts[slot]!;
    return slotDigests[slot]!;
  }
  const text = slot >= 0 ? slotTexts[slot]! : writeRequest(ctx.requestMethod, ctx.requestParams);
  const digest = sha256Base64url(`${DIGEST_LABEL}${text}`);
  lastText = text.length <= KEPT_TEXT_CHARS ? text : "";
  if (slot >= 0) slotDigests[slot] = digest;
  else if (allFrozen) keep(ctx, lastText, digest);
  return digest;
}

/** The text the last `bindingDigestOf` call digested, or "" when it was longer than `KEPT_TEXT_CHARS`. */
export function lastBindingText(): string {
  return lastText;
}

function keep(ctx: StateBinding, text: string, digest: string): void {
  slotParams[nextSlot] = ctx.requestParams;
  slotMethods[nextSlot] = ctx.requestMethod;
  slotTexts[nextSlot] = text;
  slotDigests[nextSlot] = digest;
  nextSlot = (nextSlot + 1) % SLOTS;
}

/**
 * `canonicalJson([method, salient params])` in one walk (canonicalJson's own fast writer) that also
 * notes (in `allFrozen`) whether every object in it is frozen, without building the salient
 * object. Anything the fast walk does not take (not JSON, deeper than its depth) goes to
 * canonicalJson, which writes it or throws its TypeError naming the path; a test pins the two
 * texts equal.
 */
function writeRequest(method: string, params: Readonly<Record<string, unknown>>): string {
  const frozen: FrozenWalk = { all: Object.isFrozen(params) };
  let text = "";
  for (const key of sortedKeys(params)) {
    const item = params[key];
    if (item === undefined || UNBOUND_PARAMS.has(key)) continue;
    const written = writeCanonicalFast(item, 1, frozen);
    if (written === undefined) {
      allFrozen = false;
      return canonicalJson([method, salientParams(params)]);
    }
    text += `${text === "" ? "" : ","}${quoteJson(key)}:${written}`;
  }
  allFrozen = frozen.all;
  return `[${quoteJson(method)},{${text}}]`;
}

function salientParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const salient: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(params)) if (!UNBOUND_PARAMS.has(name)) salient[name] = params[name];
  return salient;
}

/**
 * SHA-256 of a string's UTF-8 bytes, base64url (a digest of public text, not a MAC): Node's
 * one-shot `crypto.hash` (Node 20.12 and later; it creates no Hash object), else `createHash`,
 * which gives the same digest.
 */
const sha256Base64url: (text: string) => string =
  typeof hash === "function"
    ? (text) => hash("sha256", text, "base64url")
    : (text) => createHash("sha256").update(text, "utf8").digest("base64url");
