import type { JsonValue } from "./json-value";
import type { AnswerVerdict, CallRow, SessionSettings, SessionStateStore, StreamEventRow } from "./session-state";

interface Timed<T> {
  value: T;
  at: number;
}

/**
 * Session state in this process's memory: every app on one `MemoryMessageBus` shares it (`shared`
 * is true then, as for a database), and an app with a bus that offers none gets one of its own
 * (`shared` false: a stream resumes on the instance that holds it only).
 */
export class MemorySessionState implements SessionStateStore {
  /** Events by stream, in order of position. */
  private readonly events = new Map<string, Timed<StreamEventRow>[]>();
  /** Events held per session: over the bound, the session's oldest event goes. */
  private readonly counts = new Map<string, number>();
  private readonly calls = new Map<string, Timed<CallRow>>();
  private readonly instances = new Map<string, number>();
  private readonly settings = new Map<string, { value: SessionSettings; until: number }>();

  constructor(
    readonly shared: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  async appendEvents(rows: readonly StreamEventRow[], keepPerSession: number): Promise<void> {
    for (const row of rows) {
      let list = this.events.get(row.stream);
      if (list === undefined) this.events.set(row.stream, (list = []));
      if (list.some((e) => e.value.gen === row.gen && e.value.seq === row.seq)) continue;
      list.push({ value: row, at: this.now() });
      list.sort((a, b) => a.value.gen - b.value.gen || a.value.seq - b.value.seq);
      const count = (this.counts.get(row.session) ?? 0) + 1;
      this.counts.set(row.session, count);
      if (count > keepPerSession) this.dropOldest(row.session);
    }
  }

  async eventsAfter(stream: string, gen: number, seq: number): Promise<StreamEventRow[]> {
    return (this.events.get(stream) ?? []).map((e) => e.value).filter((e) => e.gen > gen || (e.gen === gen && e.seq > seq));
  }

  async saveRound(call: CallRow): Promise<boolean> {
    const held = this.calls.get(call.stream)?.value;
    if (held !== undefined && (held.gen !== call.gen || held.owner !== call.owner || held.finished)) return false;
    this.calls.set(call.stream, { value: { ...call, answers: {}, finished: false }, at: this.now() });
    return true;
  }

  async loadCall(stream: string): Promise<CallRow | undefined> {
    return this.calls.get(stream)?.value;
  }

  async recordAnswer(stream: string, wireId: string, answer: JsonValue): Promise<AnswerVerdict> {
    const held = this.calls.get(stream);
    if (held === undefined) return { kind: "unknown" };
    const call = held.value;
    if (call.finished || !call.waiting.includes(wireId)) return { kind: "not-waiting" };
    held.value = { ...call, waiting: call.waiting.filter((id) => id !== wireId), answers: { ...call.answers, [wireId]: answer } };
    held.at = this.now();
    return { kind: "recorded", owner: call.owner, gen: call.gen };
  }

  async finishCall(stream: string, gen: number): Promise<void> {
    const held = this.calls.get(stream);
    if (held !== undefined && held.value.gen === gen) held.value = { ...held.value, finished: true };
  }

  async releaseCall(stream: string, gen: number, owner: string): Promise<void> {
    const held = this.calls.get(stream);
    if (held !== undefined && held.value.gen === gen && held.value.owner === owner) held.value = { ...held.value, owner: null };
  }

  async claimCall(stream: string, gen: number, owner: string): Promise<CallRow | undefined> {
    const held = this.calls.get(stream);
    if (held === undefined) return undefined;
    const call = held.value;
    if (call.gen !== gen || call.finished) return undefined;
    if (call.owner !== null && (await this.isAlive(call.owner))) return undefined;
    held.value = { ...call, owner, gen: gen + 1 };
    held.at = this.now();
    return held.value;
  }

  async beat(tag: string, ttlMs: number): Promise<void> {
    this.instances.set(tag, this.now() + ttlMs);
  }

  async retire(tag: string): Promise<void> {
    this.instances.delete(tag);
  }

  async isAlive(tag: string): Promise<boolean> {
    return (this.instances.get(tag) ?? 0) > this.now();
  }

  async loadSettings(session: string): Promise<SessionSettings | undefined> {
    const held = this.settings.get(session);
    return held !== undefined && held.until > this.now() ? held.value : undefined;
  }

  async saveSettings(session: string, settings: SessionSettings, lifetimeMs: number): Promise<void> {
    this.settings.set(session, { value: settings, until: this.now() + lifetimeMs });
  }

  async dropSettings(session: string): Promise<void> {
    this.settings.delete(session);
  }

  async sweep(lifetimeMs: number): Promise<void> {
    const before = this.now() - lifetimeMs;
    for (const [stream, list] of this.events) {
      const kept = list.filter((e) => e.at >= before);
      for (const event of list) if (event.at < before) this.uncount(event.value.session);
      if (kept.length === 0) this.events.delete(stream);
      else this.events.set(stream, kept);
    }
    for (const [stream, call] of this.calls) if (call.at < before) this.calls.delete(stream);
    const now = this.now();
    for (const [session, held] of this.settings) if (held.until <= now) this.settings.delete(session);
    for (const [tag, until] of this.instances) if (until < before) this.instances.delete(tag);
  }

  private dropOldest(session: string): void {
    let oldest: { stream: string; at: number } | undefined;
    for (const [stream, list] of this.events) {
      const first = list[0];
      if (first !== undefined && first.value.session === session && (oldest === undefined || first.at < oldest.at))
        oldest = { stream, at: first.at };
    }
    if (oldest === undefined) return;
    const list = this.events.get(oldest.stream)!;
    list.shift();
    if (list.length === 0) this.events.delete(oldest.stream);
    this.uncount(session);
  }

  private uncount(session: string): void {
    const count = (this.counts.get(session) ?? 1) - 1;
    if (count <= 0) this.counts.delete(session);
    else this.counts.set(session, count);
  }
}
