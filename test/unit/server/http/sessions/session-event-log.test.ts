// Pins SessionEventLog: it keeps at most maxReplayEvents events, replays a stream's events after
// the given one (never the priming event, never another stream's), and nothing for an id it no
// longer holds, never held, or not written as it wrote it; after many events (its ring wrapped
// around many times) it still holds exactly the last maxReplayEvents; events stored during a
// replay are not replayed by it.
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

  it("holds exactly the last events after its ring wrapped around, and refuses ids it did not write", async () => {
    const log = new SessionEventLog(4);
    const ids: string[] = [];
    for (let n = 0; n < 23; n++) ids.push(await log.storeEvent(n % 2 === 0 ? "even" : "odd", message(n)));
    const kept = await Promise.all(ids.map((id) => log.getStreamIdForEventId(id)));
    expect(kept).toEqual([...Array<undefined>(19).fill(undefined), "odd", "even", "odd", "even"]);
    for (const id of ["0", "24", "-1", "020", "20.0", "x", ""]) expect(await log.getStreamIdForEventId(id)).toBeUndefined();
    const replayed: [string, unknown][] = [];
    expect(await log.replayEventsAfter(ids[19]!, { send: async (id, m) => void replayed.push([id, m]) })).toBe("odd");
    expect(replayed).toEqual([[ids[21], message(21)]]);
  });

  it("does not replay events stored while it replays", async () => {
    const log = new SessionEventLog(10);
    const from = await log.storeEvent("s", message(0));
    await log.storeEvent("s", message(1));
    await log.storeEvent("s", message(2));
    const replayed: unknown[] = [];
    await log.replayEventsAfter(from, {
      send: async (_id, m) => {
        replayed.push(m);
        await log.storeEvent("s", message(100 + replayed.length));
      },
    });
    expect(replayed).toEqual([message(1), message(2)]);
  });
});
