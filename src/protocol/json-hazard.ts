/**
 * What in `value` JSON cannot carry faithfully, or undefined when nothing: a cycle, a bigint (both
 * make `JSON.stringify` throw), a function or a symbol (silently dropped). Objects with a `toJSON`
 * (a Date) are taken as serializing themselves. A walk with its own stack: no depth overflows it.
 *
 * @example jsonHazard({ n: 1n }) // "a bigint"
 */
export function jsonHazard(value: unknown): string | undefined {
  const stack: { value: unknown; leaving: boolean }[] = [{ value, leaving: false }];
  const open = new Set<object>();
  while (stack.length > 0) {
    const { value: current, leaving } = stack.pop()!;
    if (leaving) {
      open.delete(current as object);
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
    stack.push({ value: current, leaving: true });
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push({ value: item, leaving: false });
  }
  return undefined;
}
