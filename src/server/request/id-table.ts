/**
 * Values by JSON-RPC id (a string or a number: `"1"` and `1` are different ids), for entries
 * added and removed per request on a long-lived connection. Not a `Map`: a Map with an entry
 * added and deleted per request is rebuilt into a new table every few requests, and V8 leaves each
 * old table pointing to the next with its entries in place, so once one old table reaches the old
 * generation every later table, and every value in it, is promoted too (see `InFlightRequests` in
 * `../http/http-drain.ts`, where it was measured). A dictionary-mode object (made by
 * `Object.create(null)`) is rebuilt without a link from the old to the new.
 */
export class IdTable<V> {
  private entries: Record<string, V> = Object.create(null) as Record<string, V>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(id: string | number): boolean {
    return keyOf(id) in this.entries;
  }

  get(id: string | number): V | undefined {
    return this.entries[keyOf(id)];
  }

  set(id: string | number, value: V): void {
    const key = keyOf(id);
    if (!(key in this.entries)) this.count++;
    this.entries[key] = value;
  }

  /** Removes the entry of `id`; whether there was one. */
  delete(id: string | number): boolean {
    const key = keyOf(id);
    if (!(key in this.entries)) return false;
    delete this.entries[key];
    this.count--;
    return true;
  }

  values(): V[] {
    return Object.values(this.entries);
  }

  clear(): void {
    this.entries = Object.create(null) as Record<string, V>;
    this.count = 0;
  }
}

/** The property key of an id: its type first, so that the string "1" and the number 1 differ. */
function keyOf(id: string | number): string {
  return typeof id === "number" ? `n${id}` : `s${id}`;
}
