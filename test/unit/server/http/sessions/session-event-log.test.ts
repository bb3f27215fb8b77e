// Pins SessionEventLog, one session's events on one instance:
// - a POST's stream is bound to its request while the SDK opens it (the priming event, position
//   0), and every later message of that request (named by `current`) is numbered in it; ids name
//   the stream and the position, and any instance of the key ring reads them back
// - a request's response ends it; a stream whose requests are all answered is found through the
//   ring only; a released stream (handed over) numbers and keeps nothing more
// - request streams go to the shared log, the GET stream's notifications do not; the GET stream
//   replays from the ring through the SDK's EventStore calls
// - the ring keeps the last maxEvents events: a replay needing an event it lost is undefined, and
//   after it wrapped around many times it still holds exactly the last maxEvents
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventLog } from "../../../../../src/server/http/sessions/session-event-log";
import type { LocalStream, LogEvent } from "../../../../../src/server/http/sessions/local-stream";
import type { StreamLog } from "../../../../../src/server/http/sessions/stream-log";
import { sessionRef, StreamTokens } from "../../../../../src/server/http/sessions/stream-tokens";
import { StateSealer } from "../../../../../src/state/state-sealer";
import { MemoryLogger } from "../../../../../src/testing/index";

const sealer = new StateSealer({ secret: "a secret of at least thirty-two bytes!" }, new MemoryLogger());
const tokens = new StreamTokens(sealer, 60_000);
const session = sessionRef("session-id", "alice");
const note = (n: number) => ({ jsonrpc: "2.0", method: "notifications/message", params: { n } }) as JSONRPCMessage;
const answer = (id: number) => ({ jsonrpc: "2.0", id, result: {} }) as JSONRPCMessage;

function logOf(maxEvents: number) {
  const recorded: { stream: string; persist: boolean; event: LogEvent }[] = [];
  const finished: string[] = [];
  const shared = {
    record: (stream: LocalStream, event: LogEvent) => recorded.push({ stream: stream.key, persist: stream.persist, event }),
    finish: (stream: LocalStream) => finished.push(stream.key),
  } as unknown as StreamLog;
  return { log: new SessionEventLog(session, shared, tokens, "tag", maxEvents), recorded, finished };
}

/** The SDK's part: it opens a POST's stream (priming), then sends the request's messages. */
async function post(log: SessionEventLog, requestId: number, sdkId: string) {
  const stream = log.begin([requestId], { jsonrpc: "2.0", id: requestId, method: "tools/call" });
  log.expect(stream);
  const priming = await log.storeEvent(sdkId, {} as JSONRPCMessage);
  log.expect(undefined);
  const send = async (message: JSONRPCMessage) => {
    log.current = requestId;
    try {
      return await log.storeEvent(sdkId, message);
    } finally {
      log.current = undefined;
    }
  };
  return { stream, priming, send };
}

describe("SessionEventLog", () => {
  it("numbers a request's messages in its stream, with ids any instance of the ring reads", async () => {
    const { log, recorded, finished } = logOf(10);
    const one = await post(log, 1, "sdk-a");
    const two = await post(log, 2, "sdk-b");
    expect(tokens.parse(one.priming, session)).toMatchObject({
      name: { key: one.stream.key, tag: "tag", requestIds: [1] },
      gen: 0,
      seq: 0,
    });
    const first = await one.send(note(1));
    await two.send(note(2));
    expect(tokens.parse(first, session)).toMatchObject({ gen: 0, seq: 1 });
    expect(tokens.parse(first, sessionRef("another-session", "alice"))).toBeUndefined();
    expect(tokens.parse(first, sessionRef("session-id", "mallory"))).toBeUndefined();
    expect(log.streamOf(1)).toBe(one.stream);
    const last = await one.send(answer(1));
    expect(tokens.parse(last, session)).toMatchObject({ seq: 2 });
    // Answered: found through the ring, no more as a request in flight.
    expect(log.streamOf(1)).toBeUndefined();
    expect(log.replay(one.stream.key, { gen: 0, seq: 0 })!.events.map((e) => e.message)).toEqual([note(1), answer(1)]);
    expect(recorded.map((r) => [r.stream === one.stream.key ? "one" : "two", r.event.seq])).toEqual([
      ["one", 1],
      ["two", 1],
      ["one", 2],
    ]);
    // Not recorded in the shared state (no round asked): its end is not written there.
    expect(finished).toEqual([]);
  });

  it("keeps nothing of a released stream, and ends a recorded call in the shared log with its response", async () => {
    const { log, recorded, finished } = logOf(10);
    const one = await post(log, 1, "sdk-a");
    one.stream.recorded = true;
    await one.send(note(1));
    await one.send(answer(1));
    expect(finished).toEqual([one.stream.key]);
    const two = await post(log, 2, "sdk-b");
    two.stream.released = true;
    await two.send(note(2));
    expect(recorded).toHaveLength(2);
    // Not this instance's to replay any more: a resumption reads the shared log.
    expect(log.replay(two.stream.key, { gen: 0, seq: 0 })).toBeUndefined();
  });

  it("keeps the GET stream out of the shared log and replays it for the SDK", async () => {
    const { log, recorded } = logOf(10);
    const first = await log.storeEvent("_GET_stream", note(1));
    await log.storeEvent("_GET_stream", note(2));
    expect(recorded.every((r) => !r.persist)).toBe(true);
    expect(await log.getStreamIdForEventId(first)).toBe("_GET_stream");
    const replayed: unknown[] = [];
    expect(await log.replayEventsAfter(first, { send: async (_id, m) => void replayed.push(m) })).toBe("_GET_stream");
    expect(replayed).toEqual([note(2)]);
    expect(await log.getStreamIdForEventId("not-an-id")).toBeUndefined();
  });

  it("holds exactly the last maxEvents after its ring wrapped around, and says when a replay needs what it lost", async () => {
    const { log } = logOf(4);
    const one = await post(log, 1, "sdk-a");
    const ids: string[] = [];
    for (let n = 1; n <= 23; n++) ids.push(await one.send(note(n)));
    expect(log.replay(one.stream.key, tokens.parse(ids[18]!, session)!)!.events.map((e) => e.seq)).toEqual([20, 21, 22, 23]);
    expect(log.replay(one.stream.key, tokens.parse(ids[17]!, session)!)).toBeUndefined();
    expect(log.replay("another-stream", { gen: 0, seq: 0 })).toBeUndefined();
  });
});
