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
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly detach: () => void;

  constructor(
    transport: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    const forward = () => this.controller.abort(transport?.reason);
    if (transport?.aborted) forward();
    else transport?.addEventListener("abort", forward, { once: true });
    this.detach = () => transport?.removeEventListener("abort", forward);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `work`'s outcome, or a `HandlerTimeout` (with the signal aborted) once the time is up. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.timer = setTimeout(() => {
        const timeout = new HandlerTimeout(this.timeoutMs);
        this.controller.abort(timeout);
        reject(timeout);
      }, this.timeoutMs);
      this.timer.unref?.();
      work.then(resolve, reject);
    });
  }

  /** The handler is done: no timer, and nothing can abort the signal any more. */
  release(): void {
    clearTimeout(this.timer);
    this.detach();
  }
}
