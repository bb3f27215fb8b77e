// Pins SessionEventLog: it keeps at most maxReplayEvents events, replays a stream's events after
// the given one (never the priming event, never another stream's), and nothing for an id it no
// longer holds.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { SessionEventLog } from "../../../../../src/server/http/sessions/session-event-log";

describe("SessionEventLog", () => {
  const message = (n: number) => ({ jsonrpc: "2.0", method: "notifications/message", params: { n } }) as JSONRPCMessage;

  it("replays a stream's later events, bounded", async () => {
    const log = new SessionEventLog(3);
    const priming = await log.storeEvent("s1", {} as JSONRPCMessage);
    await log.storeEvent("s1", message(1));
    await log.storeEvent("s2", message(2));
    await log.storeEvent("s1", message(3));
    const replayed: unknown[] = [];
    // The priming event fell out of the bound of 3: nothing to resume from.
    expect(await log.getStreamIdForEventId(priming)).toBeUndefined();
    expect(await log.replayEventsAfter(priming, { send: async (_id, m) => void replayed.push(m) })).toBe("");
    const second = await log.storeEvent("s1", message(4));
    expect(await log.getStreamIdForEventId(second)).toBe("s1");
    const log2 = new SessionEventLog(10);
    const start = await log2.storeEvent("a", {} as JSONRPCMessage);
    await log2.storeEvent("b", message(9));
    await log2.storeEvent("a", message(10));
    expect(await log2.replayEventsAfter(start, { send: async (_id, m) => void replayed.push(m) })).toBe("a");
    expect(replayed).toEqual([message(10)]);
  });
});
