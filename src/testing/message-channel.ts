import type { BoundaryName, Channel, ChannelRequestOptions, RoundReply, NotificationListener, StrayListener } from "./channel";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./wire-messages";

/**
 * The least a message transport offers: the client side of the SDK's in-memory pair (what
 * `McpApp.connect()` returns) fits it, and so does the kit's stdio child link.
 */
export interface MessageTransport {
  start(): Promise<void>;
  send(message: JsonRpcRequest | JsonRpcNotification): Promise<void>;
  close(): Promise<void>;
  onmessage?(message: unknown): void;
  onclose?(): void;
  onerror?(error: Error): void;
}

interface Pending {
  method: string;
  notifications: JsonRpcNotification[];
  resolve(exchange: RoundReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * JSON-RPC over a message transport: requests are matched to responses by id; a notification is
 * recorded on every request in flight when it arrives (exact with one request at a time).
 * Messages are copied through JSON, so a test sees what serialization would put on the wire.
 */
export class MessageChannel implements Channel {
  private readonly pending = new Map<JsonRpcId, Pending>();
  private ended: Error | undefined;

  private constructor(
    readonly boundary: BoundaryName,
    private readonly transport: MessageTransport,
    private readonly onNotification: NotificationListener,
    private readonly onStray: StrayListener,
    /** Adds what is known about an ended connection (a child's exit code and stderr). */
    private readonly explainEnd: () => string,
  ) {
    transport.onmessage = (message) => this.receive(message);
    transport.onclose = () => this.end(new Error(`the ${boundary} connection closed${this.explainEnd()}`));
    transport.onerror = (error) => this.onStray({ transportError: error.message });
  }

  /** Starts the transport and returns the channel over it. */
  static async open(
    boundary: BoundaryName,
    transport: MessageTransport,
    listeners: { onNotification: NotificationListener; onStray: StrayListener },
    explainEnd: () => string = () => "",
  ): Promise<MessageChannel> {
    const channel = new MessageChannel(boundary, transport, listeners.onNotification, listeners.onStray, explainEnd);
    await transport.start();
    return channel;
  }

  request(message: JsonRpcRequest, options: ChannelRequestOptions): Promise<RoundReply> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.pending.has(message.id)) return Promise.reject(new Error(`request id ${JSON.stringify(message.id)} is already in flight`));
    return new Promise<RoundReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.id);
        reject(
          new Error(
            `no response to ${message.method} (id ${JSON.stringify(message.id)}) within ${options.timeoutMs} ms over ${this.boundary}${this.explainEnd()}`,
          ),
        );
      }, options.timeoutMs);
      timer.unref();
      this.pending.set(message.id, { method: message.method, notifications: [], resolve, reject, timer });
      this.transport.send(copy(message)).catch((error: unknown) => {
        clearTimeout(timer);
        this.pending.delete(message.id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    if (this.ended) throw this.ended;
    await this.transport.send(copy(message));
  }

  async close(): Promise<void> {
    this.end(new Error(`the ${this.boundary} test client was closed`));
    await this.transport.close();
  }

  private receive(raw: unknown): void {
    const message = copy(raw) as { id?: unknown; method?: unknown };
    if (typeof message !== "object" || message === null || Array.isArray(message)) return this.onStray(message);
    if (typeof message.method === "string") {
      // A server must not send requests (DIGEST §1.1): one with an id is stray.
      if (message.id !== undefined) return this.onStray(message);
      const notification = message as JsonRpcNotification;
      this.onNotification(notification);
      for (const entry of this.pending.values()) entry.notifications.push(notification);
      return;
    }
    const entry = typeof message.id === "string" || typeof message.id === "number" ? this.pending.get(message.id) : undefined;
    if (entry === undefined) return this.onStray(message);
    clearTimeout(entry.timer);
    this.pending.delete(message.id as JsonRpcId);
    entry.resolve({ response: message as JsonRpcResponse, notifications: entry.notifications });
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = reason;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new Error(`${reason.message} before ${entry.method} was answered`));
    }
    this.pending.clear();
  }
}

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
