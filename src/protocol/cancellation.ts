/**
 * A request's cancellation as its transport gives it: one shape for every transport. `cancelled`
 * answers "has the client gone away" without making anything; `signal` is read only by what needs
 * an `AbortSignal` (a handler reading `ctx.signal`), so a transport may make it on that first read
 * (the HTTP listener and the stdio lane make no AbortController for a request nobody asks).
 */
export interface Cancellation {
  /** True once the request was cancelled (the client went away, a cancellation notification, a drain). */
  readonly cancelled: boolean;
  /** Aborts when the request is cancelled (already aborted when it was before the first read). */
  readonly signal: AbortSignal;
}

/** The cancellation of a transport that has an `AbortSignal` already (the SDK's, a web `Request`'s). */
export function signalCancellation(signal: AbortSignal): Cancellation {
  return {
    get cancelled() {
      return signal.aborted;
    },
    signal,
  };
}

/**
 * A cancellation made on demand: `cancel` before anything read `signal` makes no AbortController;
 * the signal first read after it is aborted with the same reason.
 */
export class OnDemandCancellation implements Cancellation {
  private controller: AbortController | undefined;
  private ended: { readonly reason: unknown } | undefined;

  get cancelled(): boolean {
    return this.ended !== undefined;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.ended !== undefined) this.controller.abort(this.ended.reason);
    }
    return this.controller.signal;
  }

  cancel(reason?: unknown): void {
    if (this.ended !== undefined) return;
    this.ended = { reason };
    this.controller?.abort(reason);
  }
}
