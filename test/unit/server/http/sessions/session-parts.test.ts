// Pins the parts of a 2025 session, outside any transport:
// - SessionOptions: defaults as documented; a bound that is not a positive integer, or an unknown
//   option, is refused naming it
// - SessionEventLog keeps at most maxReplayEvents events, replays a stream's events after the
//   given one (never the priming event, never another stream's), and nothing for an id it no longer holds
// - RelayTransport: server-to-client request ids become `<tag>~<n>` on the wire and the answer is
//   handed back under the SDK's own id; an answer delivered over the bus is handed back the same
//   way; more waiting requests than maxPending are refused; an unanswered request is withdrawn
//   after answerTimeoutMs with an error naming the option
// - SessionToken: a session id opens only for the principal it was sealed for; two ids for the same
//   facts differ
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { StateSealer } from "../../../../../src/state/state-sealer";
import { ownerOf, RelayTransport } from "../../../../../src/server/http/sessions/relay-transport";
import { SessionEventLog } from "../../../../../src/server/http/sessions/session-event-log";
import { resolveSessionOptions, SESSION_DEFAULTS } from "../../../../../src/server/http/sessions/session-options";
import { SessionToken } from "../../../../../src/server/http/sessions/session-token";
import { MemoryLogger } from "../../../../../src/testing/index";

describe("SessionOptions", () => {
  it("applies the documented defaults and refuses what is not a positive integer", () => {
    expect(resolveSessionOptions()).toEqual({
      idleTimeoutMs: 1_800_000,
      maxLifetimeMs: 86_400_000,
      maxSessions: 10_000,
      maxSessionsPerPrincipal: 32,
      maxPendingRequests: 16,
      answerTimeoutMs: 600_000,
      maxReplayEvents: 512,
      retryMs: 1_000,
    });
    expect(resolveSessionOptions({ maxSessions: 3 }).maxSessions).toBe(3);
    expect(() => resolveSessionOptions({ answerTimeoutMs: 0 })).toThrow("sessions.answerTimeoutMs must be a positive integer, got 0");
    expect(() => resolveSessionOptions({ idleTimeout: 5 } as never)).toThrow("unknown option sessions.idleTimeout");
    expect(Object.isFrozen(SESSION_DEFAULTS)).toBe(true);
  });
});

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

class FakeTransport implements Transport {
  sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  start = async () => undefined;
  close = async () => undefined;
  send = async (message: JSONRPCMessage) => void this.sent.push(message);
}

describe("RelayTransport", () => {
  it("tags server-to-client request ids and hands answers back under the SDK's id", async () => {
    const inner = new FakeTransport();
    const relay = new RelayTransport(inner, "inst1", 2, 60_000);
    const received: JSONRPCMessage[] = [];
    relay.onmessage = (m) => void received.push(m);
    await relay.start();
    await relay.send({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} } as JSONRPCMessage);
    expect(inner.sent[0]).toMatchObject({ id: "inst1~0" });
    expect(ownerOf("inst1~0")).toBe("inst1");
    expect(ownerOf(5)).toBeUndefined();
    expect(relay.waiting).toBe(1);
    inner.onmessage!({ jsonrpc: "2.0", id: "inst1~0", result: { action: "cancel" } } as JSONRPCMessage);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 0, result: { action: "cancel" } }]);
    await relay.send({ jsonrpc: "2.0", id: 1, method: "roots/list" } as JSONRPCMessage);
    relay.deliver({ jsonrpc: "2.0", id: "inst1~1", result: { roots: [] } } as JSONRPCMessage);
    expect(received[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { roots: [] } });
    expect(relay.waiting).toBe(0);
    await relay.close();
  });

  it("refuses requests over maxPending and withdraws one unanswered for answerTimeoutMs", async () => {
    const inner = new FakeTransport();
    const relay = new RelayTransport(inner, "t", 1, 20);
    const received: JSONRPCMessage[] = [];
    const expired = new Promise<void>((resolve) => (relay.onmessage = (m) => (received.push(m), resolve())));
    await relay.start();
    await relay.send({ jsonrpc: "2.0", id: 0, method: "elicitation/create", params: {} } as JSONRPCMessage);
    await expect(relay.send({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: {} } as JSONRPCMessage)).rejects.toThrow(
      "sessions.maxPendingRequests",
    );
    await expired;
    expect(received[0]).toMatchObject({ id: 0, error: { code: -32001, message: expect.stringContaining("sessions.answerTimeoutMs") } });
    expect(inner.sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: "t~0" } });
    expect(relay.waiting).toBe(0);
    await relay.close();
  });
});

describe("SessionToken", () => {
  it("opens only for its principal, and two ids for the same facts differ", () => {
    const tokens = new SessionToken(new StateSealer({ secret: "a secret of more than thirty-two bytes!!" }, new MemoryLogger()), 60_000);
    const facts = { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } };
    const id = tokens.seal(facts, "alice");
    expect(tokens.seal(facts, "alice")).not.toBe(id);
    expect(tokens.open(id, "alice")).toEqual(facts);
    expect(tokens.open(id, "bob")).toBeUndefined();
    expect(tokens.open(id, null)).toBeUndefined();
    expect(tokens.open(`${id}x`, "alice")).toBeUndefined();
  });
});
