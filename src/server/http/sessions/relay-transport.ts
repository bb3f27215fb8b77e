import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { IdTable } from "../../request/id-table";

const SEPARATOR = "~";

/**
 * The transport a session's SDK `Server` speaks through: the SDK's sessionful HTTP transport, with
 * the ids of the server-to-client requests made unique across instances. The SDK numbers them
 * 0, 1, 2 ... per `Server`; on the wire they become `<instance tag>~<n>`, so the client's answer,
 * POSTed to any instance, names the instance whose round waits for it (`ownerOf`), and reaches it
 * over the bus (`deliver`). It also bounds how many of them may wait at once.
 */
export class RelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** Wire ids of the requests waiting for the client's answer, each with the timer that ends the wait (an IdTable: one entry per request). */
  private readonly pending = new IdTable<NodeJS.Timeout>();

  constructor(
    private readonly inner: Transport,
    private readonly tag: string,
    private readonly maxPending: number,
    private readonly answerTimeoutMs: number,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Server-to-client requests waiting for an answer. */
  get waiting(): number {
    return this.pending.size;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const out = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof out.method === "string" && out.id !== undefined) {
      if (this.pending.size >= this.maxPending) {
        return Promise.reject(
          new Error(
            `this session already waits for ${this.maxPending} answers from the client (sessions.maxPendingRequests); answer those first`,
          ),
        );
      }
      const id = `${this.tag}${SEPARATOR}${String(out.id)}`;
      const timer = setTimeout(() => this.expire(id, out.id as string | number, options), this.answerTimeoutMs);
      timer.unref();
      this.pending.set(id, timer);
      return this.inner.send({ ...message, id } as JSONRPCMessage, options);
    }
    if (out.method === "notifications/cancelled" && out.params?.requestId !== undefined) {
      // The SDK gave up on one of its requests (its answer timed out): the client hears the wire id.
      const requestId = `${this.tag}${SEPARATOR}${String(out.params.requestId)}`;
      this.forget(requestId);
      return this.inner.send({ ...message, params: { ...out.params, requestId } } as JSONRPCMessage, options);
    }
    return this.inner.send(message, options);
  }

  /** An answer that another instance received for this session (over the bus). */
  deliver(message: JSONRPCMessage): void {
    this.receive(message);
  }

  close(): Promise<void> {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    return this.inner.close();
  }

  private forget(id: string): boolean {
    const timer = this.pending.get(id);
    if (timer === undefined) return false;
    clearTimeout(timer);
    return this.pending.delete(id);
  }

  /** The client did not answer in time: the question is withdrawn and the round ends with an error naming the wait. */
  private expire(id: string, innerId: string | number, options: TransportSendOptions | undefined): void {
    if (!this.pending.delete(id)) return;
    const reason = `the client did not answer within ${this.answerTimeoutMs} ms (sessions.answerTimeoutMs)`;
    void this.inner
      .send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } } as JSONRPCMessage, options)
      .catch(() => undefined);
    this.onmessage?.({ jsonrpc: "2.0", id: innerId, error: { code: -32001, message: `Request timed out: ${reason}` } } as JSONRPCMessage);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const answer = message as { id?: unknown; method?: unknown };
    if (answer.method === undefined && typeof answer.id === "string" && this.forget(answer.id)) {
      const inner = answer.id.slice(this.tag.length + SEPARATOR.length);
      this.onmessage?.({ ...message, id: /^[0-9]+$/.test(inner) ? Number(inner) : inner } as JSONRPCMessage, extra);
      return;
    }
    this.onmessage?.(message, extra);
  }
}

/** The instance tag of a wire id made by a `RelayTransport`, or undefined for any other id. */
export function ownerOf(id: unknown): string | undefined {
  if (typeof id !== "string") return undefined;
  const at = id.indexOf(SEPARATOR);
  return at > 0 ? id.slice(0, at) : undefined;
}
