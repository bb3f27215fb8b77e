// How many bytes a process allocated on the V8 heap over an interval, from what v8.GCProfiler
// records. The used heap only grows between collections, and it grows by what was allocated; a
// collection then frees some of it. So the bytes allocated are the growth of every stretch between
// collections: from the start to the first collection, from the end of each collection to the
// start of the next, and from the end of the last one to the end of the interval.
// Memory outside the V8 heap (Buffer and ArrayBuffer contents) is not counted.

/** The used V8 heap just before one garbage collection and just after it, in bytes. */
export interface CollectionHeapUse {
  readonly before: number;
  readonly after: number;
}

/**
 * Bytes allocated on the V8 heap over an interval: the sum of the used heap's growth between
 * collections. `collections` are in the order they happened. A stretch in which the used heap
 * shrank without a collection (a sweeper finishing late) counts as 0, not as negative allocation.
 *
 * @example allocatedBytes(1000, [{ before: 5000, after: 1200 }], 3000) // 4000 + 1800 = 5800
 */
export function allocatedBytes(startUsed: number, collections: readonly CollectionHeapUse[], endUsed: number): number {
  let allocated = 0;
  let base = startUsed;
  for (const collection of collections) {
    allocated += Math.max(0, collection.before - base);
    base = collection.after;
  }
  return allocated + Math.max(0, endUsed - base);
}
