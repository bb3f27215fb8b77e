import type { ServerResponse } from "node:http";
import type { Cancellation } from "../../protocol/cancellation";
import type { Flight } from "./http-drain";

/**
 * The cancellation of one request on node:http: the client went away before its answer was
 * written, or the drain's deadline ended it. The signal is made on its first read: "close" also
 * fires after a completed response, so only a close before the answer finished aborts it.
 */
export class ResponseCancellation implements Cancellation {
  private controller: AbortController | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly flight: Flight,
  ) {}

  get cancelled(): boolean {
    return this.flight.stopped || (this.res.destroyed && !this.res.writableFinished);
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const made = (this.controller = new AbortController());
      if (this.cancelled) made.abort();
      else {
        this.res.once("close", () => this.res.writableFinished || made.abort());
        this.flight.onStop = () => made.abort();
      }
    }
    return this.controller.signal;
  }
}
