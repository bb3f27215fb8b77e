/**
 * Freezes `value` in place, all the way down: every object and array reachable through own
 * enumerable properties, without copying. For data that belongs to the caller alone (a message
 * parsed for one request); `frozenCopy` is for data shared with anyone who may change it later.
 *
 * The walk is iterative (a heap stack, no recursion), so no depth of nesting can overflow the
 * call stack, and its work is one visit per object. An object already frozen is not entered:
 * that ends cycles and shared branches, and it means a value frozen by someone else is taken as
 * it is (`JSON.parse` never returns a frozen object). Typed arrays and other array buffer views,
 * which cannot be frozen, are left as they are (JSON carries none).
 *
 * @example const params = deepFreeze(JSON.parse(body)); // params.arguments.x = 1 now throws
 */
export function deepFreeze<T>(value: T): T {
  if (!freezable(value)) return value;
  Object.freeze(value);
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const items: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (freezable(item)) {
        Object.freeze(item);
        pending.push(item);
      }
    }
  }
  return value;
}

function freezable(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Object.isFrozen(value) && !ArrayBuffer.isView(value);
}
