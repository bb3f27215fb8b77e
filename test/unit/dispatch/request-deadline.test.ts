/*
 * Pins RequestDeadline (the signal and time limit of one component round):
 * - no AbortController is made until the signal is read;
 * - the time limit answers HandlerTimeout whether or not the signal was ever read, and aborts the
 *   signal with it (read before the limit, or first read after it);
 * - a transport abort aborts the signal with the transport's reason, whether the signal was read
 *   before the abort or first read after it (before the round was released);
 * - the first reason wins (a transport abort, then the limit: the transport's reason);
 * - once released, nothing aborts the signal: a transport abort after the release leaves a signal
 *   read before or first read after the release untouched, and the transport loses its listener;
 *   a transport abort before the release still shows on a signal first read after it;
 * - a transport that makes its signal on demand (a `Cancellation` with getters) is not asked for
 *   its signal by a round whose own signal is never read; when `cancelled` says it was cancelled
 *   before the release, the signal first read after it is aborted with the transport's reason.
 * Time is jest's fake clock: no test waits on a real timer.
 */
import { HandlerTimeout, RequestDeadline } from "../../../src/dispatch/request-deadline";
import { signalCancellation, type Cancellation } from "../../../src/protocol/cancellation";
import { countAbortControllers } from "../../support/abort-controllers";

/** A transport's cancellation that makes its signal on demand: each read of `signal` asks `makeSignal`. */
function onDemand(makeSignal: () => AbortSignal, cancelled: () => boolean): Cancellation {
  return {
    get cancelled() {
      return cancelled();
    },
    get signal() {
      return makeSignal();
    },
  };
}

const never = new Promise<never>(() => {});

describe("RequestDeadline", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it("makes no AbortController until the signal is read", async () => {
    const transport = new AbortController();
    const made = await countAbortControllers(async (madeSoFar) => {
      const deadline = new RequestDeadline(signalCancellation(transport.signal), 1000);
      await deadline.race(Promise.resolve("done"));
      deadline.release();
      expect(madeSoFar()).toBe(0);
      expect(deadline.signal.aborted).toBe(false);
    });
    expect(made).toBe(1);
  });

  it.each([
    ["read before the limit", true],
    ["first read after it", false],
  ])("answers HandlerTimeout at the limit and aborts the signal with it (%s)", async (_label, readFirst) => {
    const deadline = new RequestDeadline(undefined, 150);
    const early = readFirst ? deadline.signal : undefined;
    const raced = deadline.race(never);
    jest.advanceTimersByTime(149);
    expect(early?.aborted ?? false).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(raced).rejects.toEqual(new HandlerTimeout(150));
    const signal = early ?? deadline.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(HandlerTimeout);
    expect((signal.reason as HandlerTimeout).timeoutMs).toBe(150);
    deadline.release();
  });

  it.each([
    ["read before the abort", true],
    ["first read after it", false],
  ])("aborts with the transport's reason (%s)", (_label, readFirst) => {
    const transport = new AbortController();
    const deadline = new RequestDeadline(signalCancellation(transport.signal), 1000);
    void deadline.race(never).catch(() => undefined);
    const early = readFirst ? deadline.signal : undefined;
    transport.abort("client cancelled");
    const signal = early ?? deadline.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("client cancelled");
    deadline.release();
  });

  it("keeps the first reason: a transport abort, then the limit", async () => {
    const transport = new AbortController();
    const deadline = new RequestDeadline(signalCancellation(transport.signal), 100);
    const raced = deadline.race(never);
    transport.abort("gone");
    jest.advanceTimersByTime(100);
    await expect(raced).rejects.toBeInstanceOf(HandlerTimeout);
    expect(deadline.signal.reason).toBe("gone");
  });

  it.each([
    ["read before the release", true],
    ["first read after it", false],
  ])("never aborts once released (%s)", async (_label, readFirst) => {
    const transport = new AbortController();
    const removed = jest.spyOn(transport.signal, "removeEventListener");
    const deadline = new RequestDeadline(signalCancellation(transport.signal), 100);
    const early = readFirst ? deadline.signal : undefined;
    await deadline.race(Promise.resolve(1));
    deadline.release();
    transport.abort("closed after the response");
    jest.advanceTimersByTime(1000);
    expect((early ?? deadline.signal).aborted).toBe(false);
    expect(removed).toHaveBeenCalledTimes(readFirst ? 1 : 0);
  });

  it("shows a transport abort from before the release on a signal first read after it", async () => {
    const transport = new AbortController();
    const deadline = new RequestDeadline(signalCancellation(transport.signal), 100);
    const raced = deadline.race(Promise.resolve(1));
    transport.abort("cancelled while running");
    await raced;
    deadline.release();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe("cancelled while running");
  });

  it("never asks an on-demand transport for its signal when nothing reads the round's", async () => {
    const makeSignal = jest.fn(() => new AbortController().signal);
    const cancelled = jest.fn(() => false);
    const deadline = new RequestDeadline(onDemand(makeSignal, cancelled), 100);
    await deadline.race(Promise.resolve(1));
    deadline.release();
    expect(makeSignal).not.toHaveBeenCalled();
    expect(cancelled).toHaveBeenCalledTimes(1);
    expect(deadline.signal.aborted).toBe(false);
    expect(makeSignal).not.toHaveBeenCalled();
  });

  it("shows an on-demand transport's cancellation from before the release on a signal first read after it", async () => {
    const transport = new AbortController();
    let gone = false;
    const deadline = new RequestDeadline(
      onDemand(
        () => transport.signal,
        () => gone,
      ),
      100,
    );
    const raced = deadline.race(Promise.resolve(1));
    gone = true;
    transport.abort("client went away");
    await raced;
    deadline.release();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe("client went away");
  });

  it("links an on-demand transport's signal when the round's signal is read while it runs", async () => {
    const transport = new AbortController();
    const deadline = new RequestDeadline(
      onDemand(
        () => transport.signal,
        () => transport.signal.aborted,
      ),
      100,
    );
    const signal = deadline.signal;
    expect(signal.aborted).toBe(false);
    transport.abort("cancelled");
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("cancelled");
    deadline.release();
  });
});
