/**
 * One page of a list: the entries from `offset`, at most `size` of them, and the offset of the
 * next page when there is one. A function of the entries as given: the caller has already put
 * them in their stable order and kept only those this caller may see.
 */
export function pageOf<T>(entries: readonly T[], offset: number, size: number): { items: readonly T[]; next: number | undefined } {
  const end = offset + size;
  if (offset === 0 && end >= entries.length) return { items: entries, next: undefined };
  return { items: entries.slice(offset, end), next: end < entries.length ? end : undefined };
}
