import { STATE_TTL_MAX_SECONDS } from "../../../state/state-options";

/**
 * Bounds of the 2025-11-25 sessions every HTTP entry serves (`McpAppOptions.sessions`). A 2025-era
 * client that must be asked something (elicitation, sampling, roots) needs a session: it opens one
 * with `initialize`, and its answers come back as POSTs of its own.
 */
export interface SessionOptions {
  /** Milliseconds a session may go unused before this instance ends it (its id then answers 404). Default 1,800,000 (30 min). */
  idleTimeoutMs?: number;
  /** Longest a session id is accepted after its `initialize`, on any instance sharing the key ring. Default 86,400,000 (24 h). */
  maxLifetimeMs?: number;
  /** Sessions one instance holds at once; an `initialize` over it is answered 503 with `Retry-After`. Default 10,000. */
  maxSessions?: number;
  /**
   * Sessions one principal holds on one instance; opening one more ends that principal's least
   * recently used session that waits for no answer (else the `initialize` is answered 429). Default 32.
   */
  maxSessionsPerPrincipal?: number;
  /** Server-to-client requests of one session waiting for the client's answer; one more fails its round. Default 16. */
  maxPendingRequests?: number;
  /**
   * How long a round waits for the client's answer to one question; then the call ends with an
   * error naming the wait. The round's sealed state lives this long plus 60 s, whatever `state.ttl`
   * says (it never leaves the server), so at most 840,000 (14 min). Default 600,000 (10 min).
   */
  answerTimeoutMs?: number;
  /**
   * Events kept per session so a client that lost its stream can resume with `Last-Event-ID`, on
   * this instance and, with a shared bus, in the replay log every instance reads (about this many
   * there: the oldest are deleted in small batches). Default 512.
   */
  maxReplayEvents?: number;
  /**
   * How long the shared replay log keeps an event, and the state of a call that waits for the
   * client (its request and the round it waits in) after its last change. Default 900,000 (15 min):
   * longer than `answerTimeoutMs`.
   */
  replayLifetimeMs?: number;
  /**
   * How long an instance that stopped (killed, or cut off from the database) is still taken for
   * alive: after this, another instance takes over the calls it was running, for the client that
   * resumes their streams or answers their questions. Instances renew it every quarter of it.
   * Default 5,000.
   */
  takeoverAfterMs?: number;
  /** Milliseconds a client waits before it reconnects a dropped stream (the SSE `retry` field). Default 1,000. */
  retryMs?: number;
  /**
   * Polling (SEP-1699): a call's SSE stream still open after this many milliseconds is closed by
   * the server, and the client reconnects with `Last-Event-ID` (after `retryMs`) to receive what
   * follows. Keeps no connection open for the length of a slow call or a human's answer, behind
   * proxies that cut idle streams. Default: off (a stream stays open until its call ends).
   */
  pollAfterMs?: number;
}

export type ResolvedSessionOptions = Required<Omit<SessionOptions, "pollAfterMs">> & { readonly pollAfterMs?: number };

const OPTIONAL = new Set(["pollAfterMs"]);

export const SESSION_DEFAULTS: ResolvedSessionOptions = Object.freeze({
  idleTimeoutMs: 1_800_000,
  maxLifetimeMs: 86_400_000,
  maxSessions: 10_000,
  maxSessionsPerPrincipal: 32,
  maxPendingRequests: 16,
  answerTimeoutMs: 600_000,
  maxReplayEvents: 512,
  replayLifetimeMs: 900_000,
  takeoverAfterMs: 5_000,
  retryMs: 1_000,
});

/** How much longer than the wait for an answer a 2025 round's sealed state lives (the answer's trip, a takeover's poll, clock skew). */
export const ROUND_STATE_MARGIN_SECONDS = 60;
/** The longest wait whose round state fits the longest lifetime sealed state may have. */
const MAX_ANSWER_TIMEOUT_MS = (STATE_TTL_MAX_SECONDS - ROUND_STATE_MARGIN_SECONDS) * 1000;

/** The lifetime in seconds of a 2025 round's sealed state: the wait for the answer, and the margin. */
export function roundStateSeconds(options: ResolvedSessionOptions): number {
  return Math.ceil(options.answerTimeoutMs / 1000) + ROUND_STATE_MARGIN_SECONDS;
}

/**
 * The options with defaults applied; a RangeError naming the option for anything not a positive
 * integer, and for an `answerTimeoutMs` longer than a round's sealed state can live.
 */
export function resolveSessionOptions(options: SessionOptions = {}): ResolvedSessionOptions {
  const resolved: ResolvedSessionOptions = { ...SESSION_DEFAULTS };
  for (const [name, value] of Object.entries(options)) {
    if (!(name in SESSION_DEFAULTS) && !OPTIONAL.has(name)) {
      throw new TypeError(
        `McpApp.create: unknown option sessions.${name}; expected one of ${[...Object.keys(SESSION_DEFAULTS), ...OPTIONAL].join(", ")}`,
      );
    }
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new RangeError(`McpApp.create: sessions.${name} must be a positive integer, got ${String(value)}`);
    }
    (resolved as Record<string, number>)[name] = value as number;
  }
  if (resolved.answerTimeoutMs > MAX_ANSWER_TIMEOUT_MS) {
    throw new RangeError(
      `McpApp.create: sessions.answerTimeoutMs must be at most ${MAX_ANSWER_TIMEOUT_MS} ms, got ${resolved.answerTimeoutMs}: ` +
        `a 2025 round keeps its sealed state for the wait plus ${ROUND_STATE_MARGIN_SECONDS} s, and sealed state lives at most ` +
        `${STATE_TTL_MAX_SECONDS} s (STATE_TTL_MAX_SECONDS); lower sessions.answerTimeoutMs, or run work that waits longer ` +
        "for its user as a task (a task's question waits its ttlMs)",
    );
  }
  return resolved;
}
