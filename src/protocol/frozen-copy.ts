import { setOwn } from "./plain-object";

/**
 * A deep copy of JSON-like data (plain objects, arrays, primitives), frozen all the way down.
 * Built requests and converted schemas are frozen so that what was validated is what is sent.
 * An object's own enumerable properties are copied (a class instance becomes a plain object), the
 * ones holding `undefined` left out; arrays keep their length and holes. Recursive: the data it
 * copies is an app's own (a built request) or a request's params, whose depth the request limits
 * bound before anything is dispatched.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(copyItem)) as T;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = source[key];
    if (item === undefined) continue;
    setOwn(copy, key, frozenCopy(item));
  }
  return Object.freeze(copy) as T;
}

function copyItem(item: unknown): unknown {
  return frozenCopy(item);
}
