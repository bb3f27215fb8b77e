import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { DispatchError, type JsonRpcResponse, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";

type Settle = (answer: JsonRpcResponse | Error) => void;

/**
 * The `rawDispatch` ext-tasks needs beside the official client 2.4.0, which refuses a task's
 * answers (`resultType: "task"`, `tasks/*`). It sits between the client and the client's own
 * transport: ext-tasks' requests travel on the same connection (its headers, session and
 * authorization) with ids of their own, and their answers come back here, not to the client.
 */
export class RequestCoordinator implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly pending = new Map<string, Settle>();
  private sent = 0;

  constructor(private readonly inner: Transport) {
    inner.onclose = () => {
      for (const settle of [...this.pending.values()]) settle(new DispatchError("The connection closed before the answer came"));
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const answer = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
      const settle = typeof answer.id === "string" && answer.method === undefined ? this.pending.get(answer.id) : undefined;
      if (settle === undefined) return this.onmessage?.(message, extra);
      settle(answer.error !== undefined ? ({ kind: "error", error: answer.error } as JsonRpcResponse) : ({ kind: "result", result: answer.result } as JsonRpcResponse));
    };
  }

  /**
   * Sends one request of ext-tasks and resolves with its answer. A request that may have reached
   * the server but got no answer fails with a `DispatchError`: ext-tasks sends a `tasks/*` request
   * once more (they are safe to repeat), never a `tools/call` (send it again yourself, with the
   * same idempotency key, to find the task it may have created).
   */
  readonly dispatch: RawClientDispatch = (request, options = {}) =>
    new Promise<JsonRpcResponse>((resolve, reject) => {
      const id = `ext-tasks-${++this.sent}`;
      const method = (request as { method?: unknown }).method;
      const retryable = method !== "tools/call";
      const { signal, context } = options;
      const stream = new AbortController(); // aborted: this request's HTTP stream closes (the 2026-07-28 cancellation)
      const timer =
        context?.requestTimeoutMs === undefined
          ? undefined
          : setTimeout(() => settle(new DispatchError(`No answer within ${context.requestTimeoutMs} ms`, retryable)), context.requestTimeoutMs);
      const onAbort = () => settle(signal!.reason instanceof Error ? signal!.reason : new DOMException("Aborted", "AbortError"));
      const settle: Settle = (answer) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (!(answer instanceof Error)) return resolve(answer);
        stream.abort();
        reject(answer);
      };
      this.pending.set(id, settle);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      const sendOptions: TransportSendOptions = {
        requestSignal: stream.signal,
        onRequestStreamEnd: () => settle(new DispatchError("The answer's stream ended before the answer came", retryable)),
        ...(context?.headers !== undefined && { headers: context.headers }),
      };
      this.inner
        .send({ jsonrpc: "2.0", id, ...(request as object) } as JSONRPCMessage, sendOptions)
        .catch((error: unknown) => settle(new DispatchError("The request could not be sent, or its answer read", retryable, { cause: error })));
    });

  // The rest is the client's own transport.
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
