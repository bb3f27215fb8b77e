/**
 * A token bucket: at most `limit` calls at once, refilled at `limit` calls per `windowMs`
 * (so a steady `limit / windowMs` per millisecond after a burst). Counted per principal and per
 * component.
 *
 * @example @Tool({ rateLimit: { limit: 10, windowMs: 60_000 } })
 */
export interface RateLimit {
  /** Calls allowed in one burst (the bucket's size), and refilled per window. A positive integer. */
  readonly limit: number;
  /** Milliseconds to refill the whole bucket. A positive integer. */
  readonly windowMs: number;
}

/** What a rate limit store answers for one call: allowed or not, and when to come back. */
export interface RateDecision {
  readonly allowed: boolean;
  /** Whole calls left in the bucket after this one. */
  readonly remaining: number;
  /** Milliseconds until one call is allowed again (0 when this one was). */
  readonly retryAfterMs: number;
}

/** Checks a rate limit as an option is given (`where` names it), or throws a TypeError/RangeError naming the fix. */
export function checkRateLimit(value: unknown, where: string): RateLimit {
  if (typeof value !== "object" || value === null) throw new TypeError(`${where} must be { limit, windowMs } (or false on a component)`);
  const { limit, windowMs }: { limit?: unknown; windowMs?: unknown } = value;
  return Object.freeze({ limit: positiveInteger(limit, "limit", where), windowMs: positiveInteger(windowMs, "windowMs", where) });
}

function positiveInteger(v: unknown, name: string, where: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
    throw new RangeError(`${where}: ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/**
 * One token bucket step, shared by every store so they agree: the tokens now (refilled since
 * `at`, capped at the limit), and the decision for one more call.
 */
export function takeToken(tokens: number, elapsedMs: number, rule: RateLimit): { tokens: number; decision: RateDecision } {
  const rate = rule.limit / rule.windowMs;
  const now = Math.min(rule.limit, tokens + Math.max(0, elapsedMs) * rate);
  if (now >= 1) return { tokens: now - 1, decision: { allowed: true, remaining: Math.floor(now - 1), retryAfterMs: 0 } };
  return { tokens: now, decision: { allowed: false, remaining: 0, retryAfterMs: Math.max(1, Math.ceil((1 - now) / rate)) } };
}
