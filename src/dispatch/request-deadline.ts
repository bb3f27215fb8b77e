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

  constructor(
    private readonly transport: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      this.noteTransport();
      if (this.ended !== undefined) this.controller.abort(this.ended.reason);
      else if (!this.released && this.transport !== undefined) {
        const transport = this.transport;
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
    if (this.forward !== undefined) this.transport?.removeEventListener("abort", this.forward);
  }

  /** A transport that aborted while nobody listened ends the round all the same (first reason wins). */
  private noteTransport(): void {
    if (!this.released && this.transport?.aborted) this.end(this.transport.reason);
  }

  private end(reason: unknown): void {
    if (this.ended !== undefined) return;
    this.ended = { reason };
    this.controller?.abort(reason);
  }
}
