/**
 * A deep copy of JSON-like data (plain objects, arrays, primitives), frozen all the way down.
 * Built requests and converted schemas are frozen so that what was validated is what is sent.
 */
export function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map((item) => frozenCopy(item))) as T;
  if (typeof value === "object" && value !== null) {
    const copy = Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => [key, frozenCopy(item)]));
    return Object.freeze(copy) as T;
  }
  return value;
}
