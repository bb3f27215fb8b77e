import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

interface StoredEvent {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/**
 * The events of one session's streams, kept so a client whose stream dropped can resume it with
 * `Last-Event-ID` (the SDK transport's `EventStore`). Bounded: the oldest events go first, and a
 * resumption from an event no longer kept replays nothing (400 from the transport).
 *
 * Event ids are 1, 2, 3, ...; the last `maxEvents` events are a ring of that many slots, event n in
 * slot (n - 1) % maxEvents. Not a Map with the oldest entry deleted per event: a Map churned per
 * event is rebuilt every few events, and V8 leaves each old table pointing to the next with its
 * entries, which can promote every later table and message to the old generation (see
 * `InFlightRequests` in `../http-drain.ts`).
 */
export class SessionEventLog implements EventStore {
  private readonly events: (StoredEvent | undefined)[] = [];
  /** The id of the last event stored (0: none yet). */
  private sequence = 0;

  constructor(private readonly maxEvents: number) {}

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = ++this.sequence;
    this.events[(id - 1) % this.maxEvents] = { streamId, message };
    return Promise.resolve(String(id));
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.eventOf(eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.eventOf(lastEventId);
    if (last === undefined) return "";
    // The events to replay as they are now: what is stored while they are sent is not among them.
    const replay: [string, JSONRPCMessage][] = [];
    for (let id = Number(lastEventId) + 1; id <= this.sequence; id++) {
      const event = this.events[(id - 1) % this.maxEvents]!;
      // The priming event is stored as an empty object: it carries no message to replay.
      if (event.streamId === last.streamId && "jsonrpc" in event.message) replay.push([String(id), event.message]);
    }
    for (const [eventId, message] of replay) await send(eventId, message);
    return last.streamId;
  }

  /** The event of this id (exactly as `storeEvent` wrote it) if it is still kept. */
  private eventOf(eventId: string): StoredEvent | undefined {
    const id = Number(eventId);
    if (!Number.isSafeInteger(id) || String(id) !== eventId || id < 1 || id > this.sequence || id <= this.sequence - this.maxEvents)
      return undefined;
    return this.events[(id - 1) % this.maxEvents];
  }
}
