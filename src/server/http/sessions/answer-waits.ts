import type { JsonValue } from "../../../protocol/canonical-json";
import { isPlainObject } from "../../../protocol/plain-object";
import type { CallRow } from "../../../stores/session-state";

/** The call left this instance: handed over on shutdown, or taken over by another instance. */
export class CallLeft extends Error {
  constructor(reason: string) {
    super(`the call left this instance: ${reason}`);
  }
}

/** The round's questions were not all answered in time: the message names the wait. */
export class AnswerTimeout extends Error {}

export interface WaitOptions {
  /** Reads the call as the shared state has it (answers recorded by any instance). */
  readonly load: () => Promise<CallRow | undefined>;
  /** Whether the row still says this instance runs the call. */
  readonly stillOurs: (row: CallRow) => boolean;
  readonly timeoutMs: number;
  /** How often the shared state is read while nothing wakes the wait. */
  readonly checkEveryMs: number;
  readonly signal: AbortSignal | undefined;
}

class RoundWait {
  readonly answers: Record<string, JsonValue> = {};
  readonly done: Promise<Record<string, JsonValue>>;
  private settle!: { resolve: (answers: Record<string, JsonValue>) => void; reject: (error: Error) => void };
  private checking?: Promise<void>;

  constructor(
    readonly wireIds: readonly string[],
    private readonly options: WaitOptions,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  deliver(wireId: string, answer: JsonValue): boolean {
    if (!this.wireIds.includes(wireId) || wireId in this.answers) return false;
    this.answers[wireId] = answer;
    this.settleIfDone();
    return true;
  }

  check(): Promise<void> {
    return (this.checking ??= this.options
      .load()
      .then((row) => {
        if (row === undefined) return;
        if (!this.options.stillOurs(row)) return this.settle.reject(new CallLeft("another instance took it over"));
        for (const id of this.wireIds) if (id in row.answers && !(id in this.answers)) this.answers[id] = row.answers[id]!;
        this.settleIfDone();
      })
      // The shared state is unreachable: the next check tries again; the answer timeout still bounds the wait.
      .catch(() => undefined)
      .finally(() => (this.checking = undefined)));
  }

  fail(error: Error): void {
    this.settle.reject(error);
  }

  /** Settled once every question has its answer, or at the first answer that is an error. */
  private settleIfDone(): void {
    const given = Object.values(this.answers);
    if (given.length === this.wireIds.length || given.some((a) => isPlainObject(a) && "error" in a)) this.settle.resolve(this.answers);
  }
}

/**
 * The rounds of this instance's 2025 calls that wait for the client's answers, by stream key.
 * An answer reaches a wait either here (`deliver`: a call the shared state does not hold) or
 * through the shared state, which the wait reads when woken (`wake`: an answer recorded by this
 * instance, or announced by another on the bus) and every `checkEveryMs` (a wake-up the bus lost).
 */
export class AnswerWaits {
  private readonly waits = new Map<string, RoundWait>();

  /** Resolves to the answers by wire id (all of them, or up to the first error); rejects on timeout, cancellation or handover. */
  async wait(key: string, wireIds: readonly string[], options: WaitOptions): Promise<Record<string, JsonValue>> {
    const wait = new RoundWait(wireIds, options);
    this.waits.set(key, wait);
    const poll = setInterval(() => void wait.check(), options.checkEveryMs);
    const timeout = setTimeout(() => wait.fail(new AnswerTimeout()), options.timeoutMs);
    poll.unref();
    timeout.unref();
    const cancelled = () => wait.fail(new CallLeft("cancelled"));
    options.signal?.addEventListener("abort", cancelled);
    // Answers recorded before the wait began (a call taken over with some of its answers in).
    void wait.check();
    try {
      return await wait.done;
    } finally {
      clearInterval(poll);
      clearTimeout(timeout);
      options.signal?.removeEventListener("abort", cancelled);
      if (this.waits.get(key) === wait) this.waits.delete(key);
    }
  }

  /** An answer for a call whose round the shared state does not hold; true when a round here took it. */
  deliver(key: string, wireId: string, answer: JsonValue): boolean {
    return this.waits.get(key)?.deliver(wireId, answer) ?? false;
  }

  /** Something was recorded for the call of stream `key`: its wait reads the shared state now. */
  wake(key: string): void {
    void this.waits.get(key)?.check();
  }

  /** Ends the wait of stream `key` (its call leaves this instance). */
  leave(key: string, reason: string): void {
    this.waits.get(key)?.fail(new CallLeft(reason));
  }
}
