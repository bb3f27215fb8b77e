import { randomBytes } from "node:crypto";
import type { AppLogger } from "../../../protocol/app-logger";
import type { JsonValue } from "../../../protocol/canonical-json";
import { isPlainObject } from "../../../protocol/plain-object";
import type { MessageBus } from "../../../stores/message-bus";
import type { SessionStateStore } from "../../../stores/session-state";
import type { AnswerWaits } from "./answer-waits";

/** Where this instance hears of answers for its rounds, and of the verdicts on answers it relayed. */
export const ANSWERS_CHANNEL = "roundtrip-mcp/2025/answers/";
const VERDICTS_CHANNEL = "roundtrip-mcp/2025/verdicts/";
/** How long an answer relayed to another instance waits for its verdict before the client is told to send it again. */
const RELAY_VERDICT_MS = 3_000;

/** What became of one answer. */
export type AnswerFate = "taken" | "not-waiting" | "unavailable";

export interface AnswersDeps {
  readonly tag: string;
  readonly state: SessionStateStore;
  readonly bus: MessageBus;
  readonly waits: AnswerWaits;
  readonly logger: AppLogger;
}

/** The instance, stream and round a question's wire id names (`<instance>~<stream>~<gen>.<round>.<n>`), or undefined. */
export function questionOf(id: unknown): { readonly tag: string; readonly key: string } | undefined {
  if (typeof id !== "string") return undefined;
  const parts = id.split("~");
  return parts.length === 3 && parts[0] !== "" && parts[1] !== "" ? { tag: parts[0]!, key: parts[1]! } : undefined;
}

/**
 * The client's answers to a 2025 call's questions, POSTed to whichever instance the balancer
 * chose. An answer is recorded in the shared state before it is acknowledged (so the round gets
 * it wherever it runs next), and its round's instance is woken over the bus (it also reads the
 * shared state every few seconds, as the bus may lose a wake-up). A call with nobody alive to run
 * it is taken over here. An answer for a call the shared state does not hold (one this instance
 * or another could not record) goes over the bus to the instance that asked, which says whether
 * it took it. An answer no round waits for is never acknowledged: `not-waiting`; one that could
 * not be recorded or passed on: `unavailable`.
 */
export class SessionAnswers {
  private readonly verdicts = new Map<string, (taken: boolean) => void>();
  private readonly subscribed: Promise<Array<() => Promise<void>>>;

  constructor(private readonly deps: AnswersDeps) {
    this.subscribed = Promise.all([
      deps.bus.subscribe(ANSWERS_CHANNEL + deps.tag, (message) => void this.heard(message)),
      deps.bus.subscribe(VERDICTS_CHANNEL + deps.tag, (message) => this.verdict(message)),
    ]).catch((error: unknown) => {
      deps.logger.error("2025 sessions: could not subscribe to the message bus; answers sent to other instances will not arrive", {
        error: error instanceof Error ? error.message : String(error),
      });
      return [];
    });
  }

  /** One answer (its wire id a question's); `takeOver` runs here the call of a stream whose instance is gone. */
  async take(id: string, answer: JsonValue, takeOver: (key: string) => Promise<void>): Promise<AnswerFate> {
    const question = questionOf(id)!;
    const { state, waits, tag } = this.deps;
    let verdict;
    try {
      verdict = await state.recordAnswer(question.key, id, answer);
    } catch (error) {
      this.deps.logger.warn("2025 sessions: an answer could not be recorded in the shared state", {
        error: error instanceof Error ? error.message : String(error),
      });
      return "unavailable";
    }
    if (verdict.kind === "not-waiting") return "not-waiting";
    if (verdict.kind === "recorded") {
      this.wake(verdict.owner, question.key, takeOver);
      return "taken";
    }
    // A call the shared state does not hold: the instance that asked holds it, if anyone does.
    if (question.tag === tag) return waits.deliver(question.key, id, answer) ? "taken" : "not-waiting";
    if (state.shared && !(await state.isAlive(question.tag).catch(() => true))) return "not-waiting";
    return this.relay(question.tag, question.key, id, answer);
  }

  async close(): Promise<void> {
    const subscriptions = await this.subscribed;
    await Promise.all(subscriptions.map((off) => off().catch(() => undefined)));
  }

  /** The owner's round reads its answers now; a call whose owner is gone (or released it) is taken over here. */
  private wake(owner: string | null, key: string, takeOver: (key: string) => Promise<void>): void {
    const { tag, waits, bus, state } = this.deps;
    if (owner === tag) return waits.wake(key);
    if (owner !== null) void bus.publish(ANSWERS_CHANNEL + owner, { wake: key }).catch(() => undefined);
    void (async () => {
      if (owner === null || !(await state.isAlive(owner))) await takeOver(key);
    })().catch((error: unknown) =>
      this.deps.logger.warn("2025 sessions: could not take over a call whose instance is gone", {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  private async relay(owner: string, key: string, wireId: string, answer: JsonValue): Promise<AnswerFate> {
    const nonce = randomBytes(9).toString("base64url");
    const heard = new Promise<boolean | undefined>((resolve) => {
      const timer = setTimeout(() => (this.verdicts.delete(nonce), resolve(undefined)), RELAY_VERDICT_MS);
      this.verdicts.set(nonce, (taken) => (clearTimeout(timer), this.verdicts.delete(nonce), resolve(taken)));
    });
    try {
      await this.deps.bus.publish(ANSWERS_CHANNEL + owner, { key, wireId, answer, from: this.deps.tag, nonce });
    } catch (error) {
      this.verdicts.get(nonce)?.(false);
      this.deps.logger.warn("2025 sessions: an answer could not be relayed to the instance waiting for it", {
        error: error instanceof Error ? error.message : String(error),
      });
      return "unavailable";
    }
    const taken = await heard;
    return taken === undefined ? "unavailable" : taken ? "taken" : "not-waiting";
  }

  /** A wake-up for one of this instance's rounds, or an answer another instance relayed here. */
  private async heard(message: JsonValue): Promise<void> {
    if (!isPlainObject(message)) return;
    if (typeof message.wake === "string") return this.deps.waits.wake(message.wake);
    const { key, wireId, answer, from, nonce } = message;
    if (typeof key !== "string" || typeof wireId !== "string" || typeof from !== "string" || typeof nonce !== "string") return;
    const verdict = await this.deps.state.recordAnswer(key, wireId, answer ?? null).catch(() => undefined);
    if (verdict?.kind === "recorded") this.deps.waits.wake(key);
    const taken = verdict?.kind === "recorded" || this.deps.waits.deliver(key, wireId, answer ?? null);
    await this.deps.bus.publish(VERDICTS_CHANNEL + from, { nonce, taken }).catch(() => undefined);
  }

  private verdict(message: JsonValue): void {
    if (isPlainObject(message) && typeof message.nonce === "string") this.verdicts.get(message.nonce)?.(message.taken === true);
  }
}
