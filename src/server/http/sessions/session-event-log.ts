import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

/**
 * The events of one session's streams, kept so a client whose stream dropped can resume it with
 * `Last-Event-ID` (the SDK transport's `EventStore`). Bounded: the oldest events go first, and a
 * resumption from an event no longer kept replays nothing (400 from the transport).
 */
export class SessionEventLog implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  private sequence = 0;

  constructor(private readonly maxEvents: number) {}

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${++this.sequence}`;
    this.events.set(eventId, { streamId, message });
    // A Map iterates in insertion order: the first key is the oldest event.
    while (this.events.size > this.maxEvents) this.events.delete(this.events.keys().next().value as string);
    return Promise.resolve(eventId);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.events.get(eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (last === undefined) return "";
    const after = Number(lastEventId);
    for (const [eventId, event] of [...this.events]) {
      // The priming event is stored as an empty object: it carries no message to replay.
      if (Number(eventId) <= after || event.streamId !== last.streamId || !("jsonrpc" in event.message)) continue;
      await send(eventId, event.message);
    }
    return last.streamId;
  }
}
