/**
 * Strict JSON serialization: the one canonical writer (sealed request state, question digests).
 *
 * `canonicalJson` gives one text per JSON value: object keys sorted by UTF-16 code units (the
 * order of `Array.prototype.sort`), arrays kept in order, numbers and strings written exactly as
 * `JSON.stringify` writes them. Two values that differ only in object key order produce the same
 * text; `[1, 2]` and `[2, 1]` differ, and so do `1` and `"1"`.
 *
 * Both functions accept only what JSON can carry and throw a `TypeError` (naming the path, never
 * the value) for anything else: functions, symbols, bigints, `NaN`, `±Infinity`, cycles, sparse
 * array holes, `undefined` at the top level or inside an array, and objects that are not plain
 * (Date, Map, Set, Buffer, class instances, boxed primitives). An object property whose value is
 * `undefined` is dropped, as `JSON.stringify` drops it, so optional fields left unset are fine.
 *
 * Numbers: JavaScript cannot tell `1` from `1.0` once JSON is parsed (both are the number 1), so
 * they are the same value here; `-0` is written as `0`, like `JSON.stringify` does.
 */
import { isPlainObject } from "./plain-object";

/** A value that survives a JSON round trip unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The canonical JSON text of `value`: sorted object keys, no whitespace.
 *
 * @example canonicalJson({ b: 1, a: [2, "x"] }) === '{"a":[2,"x"],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return writeTop(value, true);
}

/**
 * The JSON text of `value` with object keys in their own order, after the same strict checks as
 * `canonicalJson`. Used for the data inside a token, so that it reads back as it was written.
 *
 * @example strictJsonStringify({ b: 1, a: 2 }) === '{"b":1,"a":2}'
 */
export function strictJsonStringify(value: unknown): string {
  return writeTop(value, false);
}

/** Nesting the fast writer follows before it leaves a value to the careful one. */
const FAST_DEPTH = 100;

function writeTop(value: unknown, sortKeys: boolean): string {
  // Nearly every value is JSON and shallow: one pass that builds no paths and tracks no open
  // objects. Anything else (not JSON, a cycle, or deeper than FAST_DEPTH) is written again by
  // the careful writer, which names the path of what is wrong. Keys in their own order are what
  // JSON.stringify writes, so once a walk has found plain JSON the native writer writes it.
  if (!sortKeys) return isPlainJson(value, 0) ? JSON.stringify(value) : writeCarefully(value, false);
  return writeCanonicalFast(value) ?? writeCarefully(value, true);
}

/**
 * Whether `value` is plain JSON within FAST_DEPTH levels (what `writeCanonicalFast` accepts), by a walk
 * that builds nothing: for such a value JSON.stringify writes what the careful writer would, in
 * the caller's key order (keys in Object.keys order, `undefined` properties dropped, finite
 * numbers as ToString).
 */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth === FAST_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || value[i] === undefined || !isPlainJson(value[i], depth + 1)) return false;
        }
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const key of Object.keys(value)) {
        const item = value[key];
        if (item !== undefined && !isPlainJson(item, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * `JSON.stringify(text)` of a string: a short string that needs no escape (no control character, quote,
 * backslash or surrogate) is quoted as it is, without a call into the native writer (most keys
 * and values of params are such strings; the call costs more than the check).
 */
export function quoteJson(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * Notes, as a walk of `writeCanonicalFast` goes, whether every object in it was frozen (the state
 * floor reuses a digest of params that cannot change). Start it at `{ all: true }`.
 */
export interface FrozenWalk {
  all: boolean;
}

/**
 * The canonical JSON text of `value` (what `canonicalJson` writes), or undefined if it is not
 * plain JSON within FAST_DEPTH levels, without building paths or tracking open objects. A
 * `frozen` walk also notes whether every object it went through is frozen.
 */
export function writeCanonicalFast(value: unknown, depth = 0, frozen?: FrozenWalk): string | undefined {
  switch (typeof value) {
    case "string":
      return quoteJson(value);
    case "number":
      // For a finite number, ToString is what JSON.stringify writes (-0 included: "0").
      return Number.isFinite(value) ? `${value}` : undefined;
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (depth === FAST_DEPTH) return undefined;
      if (frozen !== undefined && frozen.all && !Object.isFrozen(value)) frozen.all = false;
      if (Array.isArray(value)) {
        let text = "[";
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return undefined;
          const item = writeCanonicalFast(value[i], depth + 1, frozen);
          if (item === undefined) return undefined;
          text += i === 0 ? item : `,${item}`;
        }
        return `${text}]`;
      }
      if (!isPlainObject(value)) return undefined;
      let text = "";
      for (const key of sortedKeys(value)) {
        const item = value[key];
        if (item === undefined) continue;
        const written = writeCanonicalFast(item, depth + 1, frozen);
        if (written === undefined) return undefined;
        text += `${text === "" ? "" : ","}${quoteJson(key)}:${written}`;
      }
      return `{${text}}`;
    }
    default:
      // undefined, function, symbol, bigint
      return undefined;
  }
}

/**
 * Own keys in `Array.prototype.sort` order (UTF-16 code units), by insertion sort: params objects
 * have a few keys, often already in order, and the comparator-less sort costs more for so few.
 */
export function sortedKeys(value: Readonly<Record<string, unknown>>): string[] {
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

function writeCarefully(value: unknown, sortKeys: boolean): string {
  if (value === undefined) throw notJson("undefined", "$");
  return write(value, sortKeys, "$", new Set<object>());
}

function write(value: unknown, sortKeys: boolean, path: string, open: Set<object>): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw notJson("a non-finite number", path);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      return writeObject(value, sortKeys, path, open);
    case "undefined":
      throw notJson("undefined", path);
    default:
      // function, symbol, bigint
      throw notJson(`a ${typeof value}`, path);
  }
}

function writeObject(value: object, sortKeys: boolean, path: string, open: Set<object>): string {
  if (open.has(value)) throw notJson("a circular reference", path);
  open.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw notJson("an array hole", `${path}[${i}]`);
      parts.push(write(value[i], sortKeys, `${path}[${i}]`, open));
    }
    text = `[${parts.join(",")}]`;
  } else {
    if (!isPlainObject(value)) {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      throw notJson(typeof name === "string" && name ? `a ${name} object` : "a non-plain object", path);
    }
    const keys = Object.keys(value);
    if (sortKeys) keys.sort();
    const parts: string[] = [];
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      parts.push(`${JSON.stringify(key)}:${write(item, sortKeys, `${path}.${key}`, open)}`);
    }
    text = `{${parts.join(",")}}`;
  }
  open.delete(value);
  return text;
}

function notJson(what: string, path: string): TypeError {
  return new TypeError(`Not JSON: ${what} at ${path}`);
}
