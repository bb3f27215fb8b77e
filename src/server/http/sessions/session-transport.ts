import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { responseId } from "./local-stream";
import type { SessionEventLog } from "./session-event-log";

/**
 * The transport a session's SDK `Server` speaks through: the SDK's sessionful HTTP transport,
 * telling the session's event log which request each message it sends belongs to. The SDK stores
 * a message (`EventStore.storeEvent`) synchronously inside its `send`, naming only the stream id
 * it made up for the POST; the log needs the request, to number the event in the stream every
 * instance knows (see `SessionEventLog`).
 */
export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly events: SessionEventLog,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
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
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.events.current = options?.relatedRequestId ?? responseId(message);
    try {
      return this.inner.send(message, options);
    } finally {
      this.events.current = undefined;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
