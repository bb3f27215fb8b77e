import type { MaybePromise } from "../protocol/maybe-async";
import type { RateDecision, RateLimit } from "../protocol/rate-limit";

/**
 * Where rate limit buckets live. `MemoryRateLimitStore` keeps them in this process (the default:
 * each instance counts on its own); `PostgresRateLimitStore` keeps them in one table, so every
 * instance on that database shares one budget per principal and component.
 *
 * `take` spends one call from the bucket `key` under `rule` and says whether it was allowed. A
 * store that cannot answer rejects (or throws); the app's limiter then falls back to its own
 * per-instance buckets for that call and logs a warning (fail-open to the per-instance limit).
 */
export interface RateLimitStore {
  take(key: string, rule: RateLimit): MaybePromise<RateDecision>;
}
