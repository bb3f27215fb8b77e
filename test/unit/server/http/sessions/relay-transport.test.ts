// Pins RelayTransport, outside any transport: server-to-client request ids become `<tag>~<n>` on
// the wire and the answer is handed back under the SDK's own id; an answer delivered over the bus
// is handed back the same way; more waiting requests than maxPending are refused; an unanswered
// request is withdrawn after answerTimeoutMs with an error naming the option.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { ownerOf, RelayTransport } from "../../../../../src/server/http/sessions/relay-transport";

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
