import { takeToken, type RateDecision, type RateLimit } from "../protocol/rate-limit";
import type { RateLimitStore } from "./rate-limit-store";

/** Default most buckets one `MemoryRateLimitStore` keeps. */
export const DEFAULT_MAX_BUCKETS = 10_000;

export interface MemoryRateLimitStoreOptions {
  /**
   * Most buckets kept at once (default 10,000): past it, the least recently used bucket is
   * dropped, so memory stays bounded however many principals call. A dropped bucket starts full
   * again; one idle for its whole window had refilled anyway.
   */
  readonly maxBuckets?: number;
  /** Milliseconds now (tests); default `Date.now`. */
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets in this process, least recently used first (a Map keeps insertion order). Synchronous. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const max = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`MemoryRateLimitStore: maxBuckets must be a positive integer, got ${String(max)}`);
    this.maxBuckets = max;
    this.now = options.now ?? Date.now;
  }

  /** Buckets held now (never more than `maxBuckets`). */
  get size(): number {
    return this.buckets.size;
  }

  take(key: string, rule: RateLimit): RateDecision {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const { tokens, decision } = takeToken(
      bucket === undefined ? rule.limit : bucket.tokens,
      bucket === undefined ? 0 : now - bucket.at,
      rule,
    );
    if (bucket !== undefined) this.buckets.delete(key);
    // Re-inserted last: the Map's first entry is always the least recently used.
    this.buckets.set(key, { tokens, at: now });
    if (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string);
    return decision;
  }
}
