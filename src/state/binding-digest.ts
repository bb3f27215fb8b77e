import { canonicalJson } from "../protocol/canonical-json";
import type { StateBinding } from "../protocol/request-context";
import { sha256Base64url } from "./state-token";

/** Top-level params that change between rounds of the same request, so are not bound. */
const UNBOUND_PARAMS: ReadonlySet<string> = new Set(["_meta", "inputResponses", "requestState"]);
const DIGEST_LABEL = "roundtrip-mcp/state/binding/v3\0";
/** Nesting the fast writer follows (canonicalJson's own fast writer stops at the same depth). */
const FAST_DEPTH = 100;

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

/** Whether every object the last `write` went through was frozen (set by `write`, read right after). */
let allFrozen = true;

/** `canonicalJson([method, salient params])`: what a token is bound to, besides the principal. */
export function requestTextOf(ctx: StateBinding): string {
  return writeRequest(ctx.requestMethod, ctx.requestParams);
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
  const digest = sha256Base64url(`${DIGEST_LABEL}${writeRequest(method, params)}`);
  if (allFrozen) {
    slotParams[nextSlot] = params;
    slotMethods[nextSlot] = method;
    slotDigests[nextSlot] = digest;
    nextSlot = (nextSlot + 1) % SLOTS;
  }
  return digest;
}

/**
 * `canonicalJson([method, salient params])` in one walk that also notes (in `allFrozen`) whether
 * every object in it is frozen, without building the salient object. Anything the fast walk does
 * not take (not JSON, deeper than FAST_DEPTH) goes to canonicalJson, which writes it or throws
 * its TypeError naming the path; a test pins the two texts equal.
 */
function writeRequest(method: string, params: Readonly<Record<string, unknown>>): string {
  allFrozen = Object.isFrozen(params);
  const keys = sortedKeys(params);
  let text = "";
  for (const key of keys) {
    const item = params[key];
    if (item === undefined || UNBOUND_PARAMS.has(key)) continue;
    const written = write(item, 1);
    if (written === undefined) return canonicalJson([method, salientParams(params)]);
    text += `${text === "" ? "" : ","}${quote(key)}:${written}`;
  }
  return `[${quote(method)},{${text}}]`;
}

function salientParams(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const salient: Record<string, unknown> = Object.create(null);
  for (const name of Object.keys(params)) if (!UNBOUND_PARAMS.has(name)) salient[name] = params[name];
  return salient;
}

/** What canonicalJson's fast writer writes for `value`, or undefined when it would not take it. */
function write(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      // For a finite number, ToString is what JSON.stringify writes (-0 included: "0").
      return Number.isFinite(value) ? `${value}` : undefined;
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (depth === FAST_DEPTH) return undefined;
      if (allFrozen && !Object.isFrozen(value)) allFrozen = false;
      if (Array.isArray(value)) {
        let text = "[";
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return undefined;
          const item = write(value[i], depth + 1);
          if (item === undefined) return undefined;
          text += i === 0 ? item : `,${item}`;
        }
        return `${text}]`;
      }
      if (!isPlain(value)) return undefined;
      const keys = sortedKeys(value as Record<string, unknown>);
      let text = "";
      for (const key of keys) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined) continue;
        const written = write(item, depth + 1);
        if (written === undefined) return undefined;
        text += `${text === "" ? "" : ","}${quote(key)}:${written}`;
      }
      return `{${text}}`;
    }
    default:
      return undefined;
  }
}

/** A JSON-style object (as `isPlainObject`, with the common prototypes checked first). */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === "[object Object]";
}

/**
 * Own keys in `Array.prototype.sort` order (UTF-16 code units), by insertion sort: params objects
 * have a few keys, often already in order, and the comparator-less sort costs more for so few.
 */
function sortedKeys(value: Readonly<Record<string, unknown>>): string[] {
  const keys = Object.keys(value);
  // Every index read below is in 0..i, inside the array: the `!`s say only that.
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    if (keys[j]! < key) continue;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** `JSON.stringify(text)`, without the native call for a short string that needs no escape. */
function quote(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}
