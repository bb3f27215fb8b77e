// Pins InFlightRequests, the requests a listener is serving and its graceful close:
// - every tracked request stays tracked until its response closes, whatever the order in which
//   responses close (entries are moved within an array on removal), and a second close of the
//   same response changes nothing;
// - a drain waits for the requests in flight and resolves once the last one closes, not counting
//   listen streams, which it ends through endStreams;
// - at the deadline it first hands over what may go on elsewhere (handOver), then ends what is
//   left: a response not yet begun is answered 503 with the
//   request's id and `connection: close`, one begun is cut; each is told to stop (onStop) and
//   marked stopped; the report counts them;
// - no request is tracked in a Map (see the class: a Map churned per request chains its old
//   tables, and every request in them, into the old generation).
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { InFlightRequests } from "../../../../src/server/http/http-drain";

/** A response that closes when told, records what is written to it, and can have begun its answer. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  shouldKeepAlive = true;
  written: { status: number; headers: Record<string, string>; body?: string } | undefined;
  writeHead(status: number, headers: Record<string, string>) {
    this.written = { status, headers };
    return this;
  }
  end(body: string) {
    this.written!.body = body;
    this.headersSent = true;
    setImmediate(() => this.emit("close"));
    return this;
  }
  destroy() {
    this.destroyed = true;
    setImmediate(() => this.emit("close"));
    return this;
  }
  close() {
    this.emit("close");
  }
}

const asResponse = (res: FakeResponse) => res as unknown as ServerResponse;

/** A seeded order, so the test is the same every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

describe("InFlightRequests", () => {
  it("tracks every request until its response closes, in any order of closing", async () => {
    const requests = new InFlightRequests();
    const responses = Array.from({ length: 50 }, () => new FakeResponse());
    responses.forEach((res) => requests.track(asResponse(res)));
    const order = shuffled(responses, 7);
    // Close all but the last five, some twice: the drain then waits for exactly those five.
    for (const res of order.slice(0, 45)) res.close();
    for (const res of order.slice(0, 10)) res.close();
    const left = order.slice(45);
    let drained = false;
    const report = requests.drain(10_000, { endStreams: async () => undefined }).then((r) => ((drained = true), r));
    for (const res of left) expect(res.shouldKeepAlive).toBe(false);
    for (const res of order.slice(0, 45)) expect(res.shouldKeepAlive).toBe(true);
    for (const [i, res] of left.entries()) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(drained).toBe(false);
      res.close();
      if (i < left.length - 1) expect(drained).toBe(false);
    }
    expect(await report).toEqual({ inFlight: 5, finished: 5, ended: 0, streams: 0 });
  });

  it("ends what is left at the deadline: 503 with the id before the answer began, cut after", async () => {
    const requests = new InFlightRequests();
    const [waiting, begun, done, stream] = [new FakeResponse(), new FakeResponse(), new FakeResponse(), new FakeResponse()];
    const stopped: string[] = [];
    const waitingFlight = requests.track(asResponse(waiting));
    waitingFlight.id = 41;
    waitingFlight.onStop = () => stopped.push("waiting");
    const begunFlight = requests.track(asResponse(begun));
    begunFlight.onStop = () => stopped.push("begun");
    begun.headersSent = true;
    requests.track(asResponse(done));
    const streamFlight = requests.track(asResponse(stream));
    streamFlight.listen = true;
    done.close();
    let streamsEnded = false;
    const order: string[] = [];
    const report = await requests.drain(20, {
      // What may be carried on elsewhere is handed over first, before anything is ended.
      handOver: async () => (order.push(`handover with ${stopped.length} ended`), 0),
      endStreams: async () => {
        order.push(`streams with ${stopped.length} ended`);
        streamsEnded = true;
        stream.close();
      },
    });
    expect(report).toEqual({ inFlight: 2, finished: 0, ended: 2, streams: 1 });
    expect(streamsEnded).toBe(true);
    expect(order).toEqual(["handover with 0 ended", "streams with 2 ended"]);
    expect(stopped.sort()).toEqual(["begun", "waiting"]);
    expect([waitingFlight.stopped, begunFlight.stopped, streamFlight.stopped]).toEqual([true, true, false]);
    expect(waiting.written?.status).toBe(503);
    expect(waiting.written?.headers).toMatchObject({ connection: "close", "retry-after": expect.any(String) });
    expect(JSON.parse(waiting.written!.body!)).toMatchObject({ jsonrpc: "2.0", id: 41, error: { data: { reason: "shutdown" } } });
    expect(begun.destroyed).toBe(true);
    expect(begun.written).toBeUndefined();
  });

  it("keeps no Map of requests", () => {
    const requests = new InFlightRequests();
    requests.track(asResponse(new FakeResponse()));
    for (const value of Object.values(requests)) expect(value).not.toBeInstanceOf(Map);
  });
});
