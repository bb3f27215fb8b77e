import type { ComponentDefinition } from "../features/component-definition";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import { isThenable, type MaybePromise } from "../protocol/maybe-async";
import { checkRateLimit, type RateDecision, type RateLimit } from "../protocol/rate-limit";
import { MemoryRateLimitStore } from "../stores/memory-rate-limit-store";
import type { RateLimitStore } from "../stores/rate-limit-store";

/** Default milliseconds a shared store may take to answer before the per-instance buckets decide. */
export const DEFAULT_RATE_STORE_TIMEOUT_MS = 1000;

/**
 * The app's rate limits (`McpAppOptions.rateLimits`): one token bucket per principal and per
 * component, checked before the component runs, on every transport.
 *
 * @example McpApp.create({ components, state, rateLimits: { default: { limit: 60, windowMs: 60_000 } } })
 */
export interface RateLimitOptions {
  /** The limit of every tool, resource and prompt that sets no `rateLimit` of its own. Default none. */
  readonly default?: RateLimit;
  /**
   * Where the buckets live. Default a `MemoryRateLimitStore` of this instance; give a
   * `PostgresRateLimitStore` to share one budget across instances.
   */
  readonly store?: RateLimitStore;
  /** Most buckets the per-instance store keeps (the default store, and the fallback of a shared one). Default 10,000. */
  readonly maxBuckets?: number;
  /**
   * Milliseconds a shared store may take per call (default 1,000). A store that fails or takes
   * longer does not refuse the call: the per-instance buckets decide it instead (fail-open to the
   * per-instance limit), and a warning is logged once until the store answers again.
   */
  readonly storeTimeoutMs?: number;
}

const OPTIONS: ReadonlySet<string> = new Set(["default", "store", "maxBuckets", "storeTimeoutMs"]);

/** Checks each call against its component's limit; refuses it with -32010 and `data` `{ limit, windowMs, retryAfter, retryAfterMs }`. */
export class RateLimiter {
  private readonly fallback: MemoryRateLimitStore;
  private readonly store: RateLimitStore;
  private readonly shared: boolean;
  private readonly defaultLimit: RateLimit | undefined;
  private readonly timeoutMs: number;
  private degraded = false;

  constructor(
    options: RateLimitOptions,
    private readonly logger: AppLogger,
  ) {
    for (const name of Object.keys(options))
      if (!OPTIONS.has(name))
        throw new TypeError(`McpApp.create: unknown rateLimits option "${name}"; expected ${[...OPTIONS].join(", ")}`);
    this.defaultLimit = options.default === undefined ? undefined : checkRateLimit(options.default, "McpApp.create: rateLimits.default");
    this.fallback = new MemoryRateLimitStore({ maxBuckets: options.maxBuckets });
    this.store = options.store ?? this.fallback;
    if (typeof this.store.take !== "function")
      throw new TypeError("McpApp.create: rateLimits.store must be a RateLimitStore (with take(key, rule))");
    this.shared = this.store !== this.fallback;
    const timeoutMs = options.storeTimeoutMs ?? DEFAULT_RATE_STORE_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1)
      throw new RangeError(`McpApp.create: rateLimits.storeTimeoutMs must be a positive integer, got ${String(timeoutMs)}`);
    this.timeoutMs = timeoutMs;
  }

  /** The limit that applies to `def`: its own, else the app's default; none for `rateLimit: false`. */
  limitOf(def: ComponentDefinition): RateLimit | undefined {
    return def.rateLimit === false ? undefined : (def.rateLimit ?? this.defaultLimit);
  }

  /**
   * Spends one call of `principal` on `def`: undefined when allowed at once (the memory store
   * answers synchronously, so an unshared limit adds no promise), a promise for a shared store,
   * and a thrown `McpError` -32010 when refused.
   */
  admit(def: ComponentDefinition, principal: string | null): MaybePromise<void> | undefined {
    const rule = this.limitOf(def);
    if (rule === undefined) return undefined;
    const key = JSON.stringify([def.ref.kind, def.ref.name, principal]);
    if (!this.shared) return verdict(this.fallback.take(key, rule), rule, def);
    return this.fromStore(key, rule).then((decision) => verdict(decision, rule, def));
  }

  private async fromStore(key: string, rule: RateLimit): Promise<RateDecision> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const taken = this.store.take(key, rule);
      const decision = isThenable(taken)
        ? await Promise.race([
            Promise.resolve(taken),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
              timer.unref();
            }),
          ])
        : taken;
      if (this.degraded) {
        this.degraded = false;
        this.logger.info("rate limit store answers again: limits are shared again");
      }
      return decision;
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn("rate limit store unreachable: limiting per instance until it answers", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return this.fallback.take(key, rule);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}

function verdict(decision: RateDecision, rule: RateLimit, def: ComponentDefinition): undefined {
  if (decision.allowed) return undefined;
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new McpError(
    ErrorCode.RateLimited,
    `Rate limit exceeded for ${def.ref.kind} "${def.ref.name}": at most ${rule.limit} calls per ${rule.windowMs} ms per caller; retry after ${retryAfter} s`,
    { limit: rule.limit, windowMs: rule.windowMs, retryAfter, retryAfterMs: decision.retryAfterMs },
  );
}
