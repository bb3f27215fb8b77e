import type { Cancellation } from "../protocol/cancellation";

/** Rejects a round whose handler outlived its time. */
export class HandlerTimeout extends Error {
  override readonly name = "HandlerTimeout";
  constructor(readonly timeoutMs: number) {
    super(`the handler did not finish within ${timeoutMs} ms`);
  }
}

/**
 * The signal and the time limit of one component round. The signal aborts when the transport
 * cancels the request or when the time is up; `race` answers at the time limit even if the
 * handler ignores the signal. Once `release`d (the handler returned) the signal never aborts:
 * work a handler hands on (a task running in the background) is not cancelled by the transport
 * closing after the response.
 *
 * The signal is made on its first read, not per round: most handlers never read it, and an
 * `AbortController` with its signal and a listener on the transport's costs more than the rest
 * of a plain call's bookkeeping. Until then the round only notes what would have aborted it, so
 * a signal first read late (after a cancellation, a timeout, or the release) is in the state it
 * would have been in had it been made at the start.
 */
export class RequestDeadline {
  private controller: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Why the round's signal aborted (the transport's reason, or the timeout), once it has. */
  private ended: { reason: unknown } | undefined;
  private released = false;
  private forward: (() => void) | undefined;

  /** The transport's signal once read (`null`: not read yet). */
  private transportSignal: AbortSignal | undefined | null = null;

  /**
   * @param transport the request's cancellation: `cancelled` is asked at the release and the time
   *   limit; its signal is read only when the round's signal is made, or to learn a cancellation's reason.
   */
  constructor(
    private readonly transport: Cancellation | undefined,
    private readonly timeoutMs: number,
  ) {}

  private transportNow(): AbortSignal | undefined {
    if (this.transportSignal === null) this.transportSignal = this.transport?.signal;
    return this.transportSignal;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      this.noteTransport();
      const transport = this.released ? undefined : this.transportNow();
      if (this.ended !== undefined) this.controller.abort(this.ended.reason);
      else if (transport !== undefined) {
        this.forward = () => this.end(transport.reason);
        transport.addEventListener("abort", this.forward, { once: true });
      }
    }
    return this.controller.signal;
  }

  /** `work`'s outcome, or a `HandlerTimeout` (with the signal aborted) once the time is up. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.timer = setTimeout(() => {
        const timeout = new HandlerTimeout(this.timeoutMs);
        this.noteTransport();
        this.end(timeout);
        reject(timeout);
      }, this.timeoutMs);
      this.timer.unref?.();
      work.then(resolve, reject);
    });
  }

  /** The handler is done: no timer, and nothing can abort the signal any more. */
  release(): void {
    clearTimeout(this.timer);
    if (this.controller === undefined) this.noteTransport();
    this.released = true;
    if (this.forward !== undefined) this.transportSignal?.removeEventListener("abort", this.forward);
  }

  /** A transport that aborted while nobody listened ends the round all the same (first reason wins). */
  private noteTransport(): void {
    if (this.released) return;
    if (this.transportSignal === null && this.transport?.cancelled !== true) return;
    const transport = this.transportNow();
    if (transport?.aborted) this.end(transport.reason);
  }

  private end(reason: unknown): void {
    if (this.ended !== undefined) return;
    this.ended = { reason };
    this.controller?.abort(reason);
  }
}
