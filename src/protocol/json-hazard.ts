const LEAVE = Symbol("leave");
/** Path length from which membership is kept in a Set too (a short path is searched faster than a Set is made). */
const SHORT_PATH = 32;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What in `value` JSON cannot carry faithfully, or undefined when nothing: a cycle, a bigint (both
 * make `JSON.stringify` throw), a function or a symbol (silently dropped). Objects with a `toJSON`
 * (a Date) are taken as serializing themselves. A walk with its own stack: no depth overflows it.
 *
 * @example jsonHazard({ n: 1n }) // "a bigint"
 */
export function jsonHazard(value: unknown): string | undefined {
  // One flat stack of values to enter, with a LEAVE mark under each open object's children.
  const stack: unknown[] = [value];
  // The open objects (the path from the root): a value met again on it is a cycle.
  const path: object[] = [];
  let onPath: Set<object> | undefined;
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === LEAVE) {
      const left = path.pop()!;
      onPath?.delete(left);
      continue;
    }
    switch (typeof current) {
      case "bigint":
      case "function":
      case "symbol":
        return `a ${typeof current}`;
      case "object":
        break;
      default:
        continue;
    }
    if (current === null || typeof (current as { toJSON?: unknown }).toJSON === "function") continue;
    if (onPath ? onPath.has(current) : path.includes(current)) return "a circular reference";
    path.push(current);
    if (onPath) onPath.add(current);
    else if (path.length > SHORT_PATH) onPath = new Set(path);
    stack.push(LEAVE);
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) enter(current[i], stack);
    } else {
      // Own enumerable properties, as JSON.stringify reads them.
      for (const key in current) if (hasOwn.call(current, key)) enter((current as Record<string, unknown>)[key], stack);
    }
  }
  return undefined;
}

/** Strings, numbers, booleans, null and undefined carry no hazard: not worth a visit. */
function enter(item: unknown, stack: unknown[]): void {
  if (item !== null && item !== undefined && typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean")
    stack.push(item);
}
