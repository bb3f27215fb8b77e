/**
 * A JSON-style object: not null, not an array, not a class instance. An `Object.prototype` from
 * another realm counts (objects parsed or cloned in a vm context, as test runners do, have one).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === "[object Object]";
}
