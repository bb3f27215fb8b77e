const LEAVE = Symbol("leave");

/**
 * What in `value` JSON cannot carry faithfully, or undefined when nothing: a cycle, a bigint (both
 * make `JSON.stringify` throw), a function or a symbol (silently dropped). Objects with a `toJSON`
 * (a Date) are taken as serializing themselves. A walk with its own stack: no depth overflows it.
 *
 * @example jsonHazard({ n: 1n }) // "a bigint"
 */
export function jsonHazard(value: unknown): string | undefined {
  // One flat stack: values to enter, and (under LEAVE) each open object to close once its children are done.
  const stack: unknown[] = [value];
  const open = new Set<object>();
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === LEAVE) {
      open.delete(stack.pop() as object);
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
    if (open.has(current)) return "a circular reference";
    open.add(current);
    stack.push(current, LEAVE);
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      // Strings, numbers, booleans and undefined carry no hazard: not worth a visit.
      if (item !== null && (typeof item === "object" || typeof item === "function" || typeof item === "bigint" || typeof item === "symbol")) stack.push(item);
    }
  }
  return undefined;
}
