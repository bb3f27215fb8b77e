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

/**
 * Sets `object[key] = value` as an own, enumerable, writable property: for a key named
 * `__proto__` it is defined rather than assigned, so that it stays a property and never replaces
 * the object's prototype (JSON.parse makes such keys own properties; copies keep them so).
 */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}
