/**
 * Bounds on what one request may contain, checked before anything parses, validates or copies it:
 * on raw text by one linear scan (`scanJsonText`, before `JSON.parse`), on a message that arrived
 * already parsed by a bounded walk (`scanJsonValue`). Both stop at the first limit crossed, so a
 * hostile request costs at most a scan of the bytes it sent. Pure functions over text and values:
 * any request path (the HTTP entry, stdio, a future fast lane) can call them.
 */

import { withinLimitsByCount } from "./limits-by-count";

/** The limits of one app; every transport applies the same ones (`McpAppOptions.limits`). */
export interface RequestLimits {
  /** Largest HTTP request body, or stdio message line, in bytes. Default 1 MiB (1,048,576). */
  readonly maxBodyBytes: number;
  /** Deepest nesting of objects and arrays in one message, the envelope included (`{}` is 1). Default 64. */
  readonly maxDepth: number;
  /** Object keys in one message, every object together. Default 4,000. */
  readonly maxKeys: number;
  /** Keys of any one object. Default 1,000. */
  readonly maxObjectKeys: number;
  /** Array elements in one message, every array together. Default 100,000. */
  readonly maxArrayItems: number;
  /** Length of any one string, key or value, in UTF-16 code units (as `String.length`). Default 1 MiB (1,048,576). */
  readonly maxStringLength: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxDepth: 64,
  maxKeys: 4_000,
  maxObjectKeys: 1_000,
  maxArrayItems: 100_000,
  maxStringLength: 1024 * 1024,
});

/** A structural limit a message crossed (the body size is checked where the bytes are read). */
export interface LimitBreach {
  readonly limit: "maxDepth" | "maxKeys" | "maxObjectKeys" | "maxArrayItems" | "maxStringLength";
  readonly maximum: number;
}

const LIMIT_NAMES = Object.keys(DEFAULT_REQUEST_LIMITS) as (keyof RequestLimits)[];

/** The app's limits: the defaults with `given` over them; throws a TypeError or RangeError naming a bad option. */
export function resolveRequestLimits(given: Partial<RequestLimits> = {}): RequestLimits {
  if (typeof given !== "object" || given === null) throw new TypeError("limits must be an object");
  for (const name of Object.keys(given)) {
    if (!(LIMIT_NAMES as string[]).includes(name))
      throw new TypeError(`limits: unknown limit "${name}"; expected ${LIMIT_NAMES.join(", ")}`);
  }
  const resolved = { ...DEFAULT_REQUEST_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value = given[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`limits.${name} must be a positive integer, got ${String(value)}`);
    resolved[name] = value;
  }
  return Object.freeze(resolved);
}

/** The short wire message of a breach: names the limit and its value, never the input. */
export function describeBreach(breach: LimitBreach): string {
  switch (breach.limit) {
    case "maxDepth":
      return `Request nested deeper than ${breach.maximum} levels (limit maxDepth)`;
    case "maxKeys":
      return `Request has more than ${breach.maximum} object keys (limit maxKeys)`;
    case "maxObjectKeys":
      return `Request has an object with more than ${breach.maximum} keys (limit maxObjectKeys)`;
    case "maxArrayItems":
      return `Request has more than ${breach.maximum} array elements (limit maxArrayItems)`;
    case "maxStringLength":
      return `Request has a string longer than ${breach.maximum} characters (limit maxStringLength)`;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Scans JSON text once, outside-in, and reports the first limit it crosses. It does not validate
 * the syntax (`JSON.parse` does that afterwards, on text known to be within the limits) and never
 * throws: on malformed text it counts what it sees, which can only make it stop sooner.
 *
 * A short text whose few `{`, `[` and `:` characters could not reach the limits is passed without
 * the scan (`withinLimitsByCount`): most requests are such texts.
 */
export function scanJsonText(text: string, limits: RequestLimits): LimitBreach | undefined {
  const { maxDepth, maxKeys, maxObjectKeys, maxArrayItems, maxStringLength } = limits;
  const counted = withinLimitsByCount(text, maxDepth, Math.min(maxKeys, maxObjectKeys), Math.min(maxArrayItems, maxStringLength));
  return counted ? undefined : scanJsonTextFully(text, limits);
}

/** `scanJsonText` without the count: the scan itself. Exported for the test that compares the two. */
export function scanJsonTextFully(text: string, limits: RequestLimits): LimitBreach | undefined {
  const { maxDepth, maxKeys, maxObjectKeys, maxArrayItems, maxStringLength } = limits;
  // Per open container: 1 for an array, 0 for an object; and the keys of each open object. The
  // scan is synchronous, so one pair of arrays serves every scan (each entry is reset on opening).
  if (scratch.arrays.length <= maxDepth) scratch = { arrays: new Uint8Array(maxDepth + 1), objectKeys: new Uint32Array(maxDepth + 1) };
  const { arrays, objectKeys } = scratch;
  arrays[0] = 0;
  objectKeys[0] = 0;
  let depth = 0;
  let keys = 0;
  let items = 0;
  const length = text.length;
  const backslashes = new BackslashCursor(text);
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c >= 128 || STRUCTURAL[c] === 0) {
      // Numbers, literals and whitespace: one step, or a native skip over a longer run.
      if (i + 1 < length && isPlain(text.charCodeAt(i + 1))) {
        PLAIN_RUN.lastIndex = i;
        PLAIN_RUN.test(text);
        i = PLAIN_RUN.lastIndex;
      } else i++;
      continue;
    }
    switch (c) {
      case QUOTE: {
        const { end, tooLong } = stringEnd(text, i, maxStringLength, backslashes);
        if (end < 0) return undefined;
        if (tooLong) return { limit: "maxStringLength", maximum: maxStringLength };
        i = end;
        break;
      }
      case OPEN_OBJECT:
        if (++depth > maxDepth) return { limit: "maxDepth", maximum: maxDepth };
        arrays[depth] = 0;
        objectKeys[depth] = 0;
        break;
      case OPEN_ARRAY: {
        if (++depth > maxDepth) return { limit: "maxDepth", maximum: maxDepth };
        arrays[depth] = 1;
        objectKeys[depth] = 0;
        const next = skipSpace(text, i + 1);
        if (next < length && text.charCodeAt(next) !== CLOSE_ARRAY && ++items > maxArrayItems)
          return { limit: "maxArrayItems", maximum: maxArrayItems };
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth > 0) depth--;
        break;
      case COLON:
        if (++keys > maxKeys) return { limit: "maxKeys", maximum: maxKeys };
        // depth <= maxDepth (checked at each open) and the scratch holds maxDepth + 1 counters.
        if (++objectKeys[depth]! > maxObjectKeys) return { limit: "maxObjectKeys", maximum: maxObjectKeys };
        break;
      case COMMA:
        if (depth > 0 && arrays[depth] === 1 && ++items > maxArrayItems) return { limit: "maxArrayItems", maximum: maxArrayItems };
        break;
    }
    i++;
  }
  return undefined;
}

let scratch = { arrays: new Uint8Array(65), objectKeys: new Uint32Array(65) };

const STRUCTURAL = new Uint8Array(128);
for (const c of [QUOTE, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY, COMMA, COLON]) STRUCTURAL[c] = 1;
const PLAIN_RUN = /[^"{}[\],:]+/y;

function isPlain(c: number): boolean {
  return c >= 128 || STRUCTURAL[c] === 0;
}

/**
 * The next backslash at or after a position. Remembered between calls, so that finding the ends of
 * many strings searches the text for backslashes once in all, not once per string.
 */
class BackslashCursor {
  private found = -2;
  constructor(private readonly text: string) {}
  next(from: number): number {
    if (this.found === -1 || (this.found >= from && this.found !== -2)) return this.found;
    this.found = this.text.indexOf("\\", from);
    return this.found;
  }
}

/**
 * Where the string opening at `open` ends, and whether its decoded contents are longer than
 * `maximum`: `end` is the index of the closing quote, or -1 when the string never closes. A string
 * without escapes is found by one native search; escapes are stepped over one by one.
 */
function stringEnd(text: string, open: number, maximum: number, backslashes: BackslashCursor): { end: number; tooLong: boolean } {
  const quote = text.indexOf('"', open + 1);
  if (quote < 0) return { end: -1, tooLong: false };
  const backslash = backslashes.next(open + 1);
  if (backslash < 0 || backslash > quote) return { end: quote, tooLong: quote - open - 1 > maximum };
  // Escapes: the decoded length is the raw length less 1 per short escape (\n) and 5 per \uXXXX.
  let saved = 0;
  for (let i = backslash; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return { end: i, tooLong: i - open - 1 - saved > maximum };
    if (c === BACKSLASH) {
      const width = text.charCodeAt(i + 1) === 0x75 /* u */ ? 6 : 2;
      saved += width - 1;
      i += width - 1;
    }
  }
  return { end: -1, tooLong: false };
}

/**
 * The same limits on a value that arrived already parsed (an in-memory message, a `parsedBody`
 * handed to a mounted handler): a walk that stops at the first limit crossed, so its work is
 * bounded by the limits, not by the value. A cycle is reported as too deep.
 */
export function scanJsonValue(value: unknown, limits: RequestLimits): LimitBreach | undefined {
  const { maxDepth, maxKeys, maxObjectKeys, maxArrayItems, maxStringLength } = limits;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let keys = 0;
  let items = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === "string") {
      if (current.length > maxStringLength) return { limit: "maxStringLength", maximum: maxStringLength };
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > maxDepth) return { limit: "maxDepth", maximum: maxDepth };
    if (Array.isArray(current)) {
      items += current.length;
      if (items > maxArrayItems) return { limit: "maxArrayItems", maximum: maxArrayItems };
      for (const item of current) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    let own = 0;
    for (const key in current) {
      if (++keys > maxKeys) return { limit: "maxKeys", maximum: maxKeys };
      if (++own > maxObjectKeys) return { limit: "maxObjectKeys", maximum: maxObjectKeys };
      if (key.length > maxStringLength) return { limit: "maxStringLength", maximum: maxStringLength };
      values.push((current as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return undefined;
}

/**
 * The id a refusal of this raw JSON-RPC text echoes, without parsing it: the top-level `id` when it
 * is a string or an integer (what MCP allows) and the top-level `method` is a string, otherwise null.
 * One pass over the top level; nested values are skipped by bracket counting. Text that stops
 * early (the start of a line too long to keep) gives what its complete members say.
 */
export function requestIdOf(text: string): string | number | null {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return null;
  let id: string | number | null = null;
  let methodIsString = false;
  const backslashes = new BackslashCursor(text);
  i = skipSpace(text, i + 1);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const keyEnd = stringEnd(text, i, Infinity, backslashes).end;
    if (keyEnd < 0) break;
    const key = text.slice(i + 1, keyEnd);
    i = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(i) !== COLON) break;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start, backslashes);
    if (end < 0) break;
    if (key === "id") id = scalar(text.slice(start, end));
    else if (key === "method") methodIsString = text.charCodeAt(start) === QUOTE;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipSpace(text, i + 1);
  }
  return methodIsString ? id : null;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** End (exclusive) of the JSON value starting at `start`, or -1 when it does not end. */
function valueEnd(text: string, start: number, backslashes: BackslashCursor): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) {
    const end = stringEnd(text, start, Infinity, backslashes).end;
    return end < 0 ? -1 : end + 1;
  }
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = stringEnd(text, i, Infinity, backslashes).end;
        if (i < 0) return -1;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
    }
    return -1;
  }
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_OBJECT || isSpace(c)) break;
    i++;
  }
  return i;
}

/** A JSON string or integer token as its value; anything else (or a malformed token) is null. */
function scalar(token: string): string | number | null {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === "string" || Number.isInteger(value) ? (value as string | number) : null;
  } catch {
    return null;
  }
}
