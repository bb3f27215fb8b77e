/**
 * Freezes `value` in place, all the way down: every object and array reachable through its
 * enumerable properties, without copying (objects are walked with for-in, the fastest walk of a
 * parsed object). For data that belongs to the caller alone (a message parsed for one request);
 * `frozenCopy` is for data shared with anyone who may change it later.
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
    const node = pending.pop() as Record<string, unknown>;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) enter(node[i], pending);
    } else {
      for (const key in node) enter(node[key], pending);
    }
  }
  return value;
}

function enter(item: unknown, pending: object[]): void {
  if (freezable(item)) {
    Object.freeze(item);
    pending.push(item);
  }
}

function freezable(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Object.isFrozen(value) && !ArrayBuffer.isView(value);
}
