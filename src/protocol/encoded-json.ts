import { deepFreeze } from "./deep-freeze";

/** The JSON text of values that can no longer change, by identity. */
const texts = new WeakMap<object, string>();

/**
 * Freezes `value` all the way down and remembers its JSON text, so that a writer of a response
 * carrying it (the fast lane's `input_required`) splices the text instead of encoding the value
 * again. For values built once and sent many times: a static `@Elicit` question. A value that
 * stays changeable somewhere below (an object frozen only on its surface before it came here,
 * which `deepFreeze` does not enter) gets no text: it is encoded every time, as before.
 */
export function encodeOnce<T extends object>(value: T): T {
  deepFreeze(value);
  if (frozenThroughout(value)) texts.set(value, JSON.stringify(value));
  return value;
}

/**
 * Remembers the JSON text of `items`, a frozen array whose entries its maker never changes (a
 * list page of descriptors made at bootstrap), without freezing the entries themselves: a writer
 * of a result carrying it splices the text. Returns `items`.
 */
export function keepText<T extends readonly object[]>(items: T): T {
  if (Object.isFrozen(items)) texts.set(items, JSON.stringify(items));
  return items;
}

/** The JSON text `encodeOnce` or `keepText` remembered for `value` (byte-equal to JSON.stringify of it), if any. */
export function encodedTextOf(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? texts.get(value) : undefined;
}

function frozenThroughout(value: object): boolean {
  const pending: object[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const node = pending.pop() as Record<string, unknown>;
    if (seen.has(node)) continue;
    seen.add(node);
    if (!Object.isFrozen(node)) return false;
    for (const key in node) {
      const item = node[key];
      if (typeof item === "object" && item !== null) pending.push(item);
    }
  }
  return true;
}
