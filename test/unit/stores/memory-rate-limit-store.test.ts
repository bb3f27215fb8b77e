/*
 * Pins MemoryRateLimitStore, the per-instance token buckets:
 * - a full bucket allows `limit` calls at once, then refuses with the milliseconds until one call
 *   is back (windowMs / limit after the last token went), and `remaining` counts down;
 * - the bucket refills at limit per windowMs, never above the limit;
 * - buckets are per key: one key's burst leaves another's untouched;
 * - memory is bounded: 100,000 principals calling leave at most `maxBuckets` buckets, the least
 *   recently used dropped first (a recently used bucket keeps its count);
 * - a maxBuckets that is not a positive integer is refused at construction.
 */
import { MemoryRateLimitStore } from "../../../src/stores/memory-rate-limit-store";

const RULE = { limit: 3, windowMs: 3000 };

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("MemoryRateLimitStore", () => {
  it("allows a burst of limit calls, then refuses with the time until one is back", () => {
    const time = clock();
    const store = new MemoryRateLimitStore({ now: time.now });
    expect([1, 2, 3].map(() => store.take("a", RULE))).toEqual([
      { allowed: true, remaining: 2, retryAfterMs: 0 },
      { allowed: true, remaining: 1, retryAfterMs: 0 },
      { allowed: true, remaining: 0, retryAfterMs: 0 },
    ]);
    expect(store.take("a", RULE)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1000 });
    time.advance(400);
    expect(store.take("a", RULE)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 600 });
  });

  it("refills at limit per window, capped at the limit", () => {
    const time = clock();
    const store = new MemoryRateLimitStore({ now: time.now });
    for (let i = 0; i < 3; i++) store.take("a", RULE);
    time.advance(1000);
    expect(store.take("a", RULE).allowed).toBe(true);
    expect(store.take("a", RULE).allowed).toBe(false);
    time.advance(60_000);
    expect(store.take("a", RULE)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
  });

  it("keeps one bucket per key", () => {
    const store = new MemoryRateLimitStore({ now: clock().now });
    for (let i = 0; i < 3; i++) store.take("a", RULE);
    expect(store.take("a", RULE).allowed).toBe(false);
    expect(store.take("b", RULE)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
  });

  it("stays within maxBuckets however many principals call, dropping the least recently used", () => {
    const time = clock();
    const store = new MemoryRateLimitStore({ maxBuckets: 1000, now: time.now });
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      store.take(`principal-${i}`, RULE);
      // A steady caller, used again and again, is never the least recently used one.
      if (i % 100 === 0) store.take("steady", { limit: 1_000_000, windowMs: 1 });
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBe(1000);
    expect(store.size).toBe(1000);
    // The steady bucket survived every eviction: it is not full again.
    expect(store.take("steady", { limit: 1_000_000, windowMs: 1 }).remaining).toBeLessThan(1_000_000 - 1);
    // principal-0 was dropped long ago: it starts full.
    expect(store.take("principal-0", RULE).remaining).toBe(2);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxBuckets %p", (maxBuckets) => {
    expect(() => new MemoryRateLimitStore({ maxBuckets })).toThrow("maxBuckets must be a positive integer");
  });
});
