import type { JsonValue } from "./json-value";

/**
 * What the 2025-11-25 sessions of every instance of one deployment share, so that a client's
 * stream resumes on whichever instance its `GET` with `Last-Event-ID` reaches: the streams' replay
 * log, the calls that wait for the client's answers (their request and the round they wait in),
 * which instances are alive, and each session's log level and resource subscriptions.
 *
 * Internal: a bus provides it (`sessionStateOf`), the PostgreSQL bus in tables of its schema, the
 * memory bus in memory shared by every app on it. Times are the store's own clock (the
 * database's), so instances with skewed clocks agree on who is alive.
 */
export interface SessionStateStore {
  /** True when other instances see what this one writes (a shared database, or one memory bus shared in-process). */
  readonly shared: boolean;
  /** Appends events (ignoring any already there); keeps about `keepPerSession` newest per session. */
  appendEvents(rows: readonly StreamEventRow[], keepPerSession: number): Promise<void>;
  /** The events of `stream` after position (gen, seq), in order. */
  eventsAfter(stream: string, gen: number, seq: number): Promise<StreamEventRow[]>;
  /**
   * Writes the round a call waits in (inserting the call when new): kept only while the row's
   * owner and generation are those of `call`. False when another instance took the call over.
   */
  saveRound(call: CallRow): Promise<boolean>;
  loadCall(stream: string): Promise<CallRow | undefined>;
  /** Takes the client's answer to one question of the round a call waits in. */
  recordAnswer(stream: string, wireId: string, answer: JsonValue): Promise<AnswerVerdict>;
  /** The call's final response is in the log: nobody takes it over any more. */
  finishCall(stream: string, gen: number): Promise<void>;
  /** The owner lets go (it is shutting down): any instance may claim it at once. */
  releaseCall(stream: string, gen: number, owner: string): Promise<void>;
  /**
   * Makes `owner` the call's owner, one generation up, when it is still at generation `gen`, not
   * finished, and its owner released it or is no longer alive; undefined otherwise.
   */
  claimCall(stream: string, gen: number, owner: string): Promise<CallRow | undefined>;
  /** This instance is alive for `ttlMs` more (its heartbeat). */
  beat(tag: string, ttlMs: number): Promise<void>;
  /** This instance is gone: its calls may be claimed at once. */
  retire(tag: string): Promise<void>;
  isAlive(tag: string): Promise<boolean>;
  loadSettings(session: string): Promise<SessionSettings | undefined>;
  saveSettings(session: string, settings: SessionSettings, lifetimeMs: number): Promise<void>;
  /** Forgets a session's settings (DELETE). */
  dropSettings(session: string): Promise<void>;
  /** Deletes events and calls older than `lifetimeMs`, expired settings and long-dead instances. */
  sweep(lifetimeMs: number): Promise<void>;
}

/** One event of a request's stream. */
export interface StreamEventRow {
  readonly stream: string;
  /** The session it belongs to (a digest of its id): the bound on events is per session. */
  readonly session: string;
  /** The generation of the call's owner that wrote it (0, then one more per takeover). */
  readonly gen: number;
  readonly seq: number;
  /** The JSON-RPC message, as JSON text. */
  readonly body: string;
}

/** A call of a 2025 session that asked the client something, as every instance sees it. */
export interface CallRow {
  readonly stream: string;
  readonly session: string;
  /** The instance running it; null once released. */
  readonly owner: string | null;
  readonly gen: number;
  /** The JSON-RPC request as the client sent it. */
  readonly request: JsonValue;
  /** The round it waits in (the runner's own shape). */
  readonly round: JsonValue;
  /** Wire ids of the round's questions still unanswered. */
  readonly waiting: readonly string[];
  /** Answers received for the round, by wire id. */
  readonly answers: Readonly<Record<string, JsonValue>>;
  readonly finished: boolean;
}

export type AnswerVerdict =
  | { readonly kind: "recorded"; readonly owner: string | null; readonly gen: number }
  /** The call exists, but no question of it waits for this id (answered already, withdrawn, finished). */
  | { readonly kind: "not-waiting" }
  | { readonly kind: "unknown" };

/** What a 2025 session set, shared by every instance serving it. */
export interface SessionSettings {
  readonly level?: string;
  readonly subscriptions: readonly string[];
}

const STATES = new WeakMap<object, () => SessionStateStore>();

/** Called by a bus that carries shared session state. */
export function provideSessionState(bus: object, state: () => SessionStateStore): void {
  STATES.set(bus, state);
}

/** The session state a bus shares, if it offers one. */
export function sessionStateOf(bus: object): SessionStateStore | undefined {
  return STATES.get(bus)?.();
}
