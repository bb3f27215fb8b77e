import type { Channel, ChannelRequestOptions, RoundReply, HttpRound, NotificationListener, StrayListener } from "./channel";
import { mcpRequestHeaders, paramHeadersOf, type ParamHeader } from "./mcp-request-headers";
import type { JsonObject } from "../protocol/wire-types";
import { META, PROTOCOL_VERSION, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from "./wire-messages";
import { SseDataReader } from "./sse-events";

export interface HttpChannelOptions {
  url: string;
  /** Sent with every request (an `Authorization` header, for example). */
  headers?: Record<string, string>;
  onNotification: NotificationListener;
  onStray: StrayListener;
}

/**
 * Streamable HTTP as a 2026-07-28 client speaks it (DIGEST §5.3): each message is its own POST
 * with the required headers; the answer is one JSON body or an SSE stream whose notifications
 * come before the final response. Tools whose arguments are mirrored into `Mcp-Param-*` headers
 * are learned from one `tools/list` on the first `tools/call` that has arguments.
 */
export class HttpChannel implements Channel {
  readonly boundary = "http" as const;
  private toolHeaders: Promise<Map<string, ParamHeader[]>> | undefined;
  private readonly controllers = new Set<AbortController>();
  private discoveryId = 0;

  constructor(private readonly options: HttpChannelOptions) {}

  get url(): string {
    return this.options.url;
  }

  async request(message: JsonRpcRequest, options: ChannelRequestOptions): Promise<RoundReply> {
    const paramHeaders = await this.paramHeadersFor(message, options.timeoutMs);
    const { http, messages } = await this.post(message, { ...mcpRequestHeaders(message, paramHeaders), ...this.options.headers }, options);
    const notifications: JsonRpcNotification[] = [];
    let response: JsonRpcResponse | undefined;
    for (const received of messages) {
      const m = received as { id?: unknown; method?: unknown };
      if (typeof m === "object" && m !== null && typeof m.method === "string" && m.id === undefined) {
        notifications.push(received as JsonRpcNotification);
        this.options.onNotification(received as JsonRpcNotification);
      } else if (response === undefined && isResponseTo(received, message.id)) {
        response = received as JsonRpcResponse;
      } else {
        this.options.onStray(received);
      }
    }
    if (response === undefined) {
      throw new Error(
        `no JSON-RPC response to ${message.method} (id ${JSON.stringify(message.id)}): HTTP ${http.status} with ${describeBody(messages)}`,
      );
    }
    return { response, notifications, http };
  }

  async notify(message: JsonRpcNotification, options: ChannelRequestOptions): Promise<void> {
    const { http, messages } = await this.post(message, { ...mcpRequestHeaders(message), ...this.options.headers }, options);
    for (const m of messages) this.options.onStray(m);
    if (http.status >= 300) throw new Error(`notification ${message.method} refused: HTTP ${http.status}`);
  }

  async close(): Promise<void> {
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }

  private async post(
    message: JsonRpcRequest | JsonRpcNotification,
    baseHeaders: Record<string, string>,
    options: ChannelRequestOptions,
  ): Promise<{ http: HttpRound; messages: unknown[] }> {
    const requestHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...baseHeaders, ...lowerCased(options.headers ?? {}) })) {
      if (value !== undefined) requestHeaders[name.toLowerCase()] = value;
    }
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    timer.unref();
    try {
      const response = await fetch(this.options.url, {
        method: "POST",
        headers: requestHeaders,
        body: JSON.stringify(message),
        signal: controller.signal,
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
      const http = { status: response.status, headers, requestHeaders };
      const type = response.headers.get("content-type") ?? "";
      if (type.includes("text/event-stream") && response.body) return { http, messages: await readEvents(response.body) };
      const text = await response.text();
      if (text.length === 0) return { http, messages: [] };
      try {
        return { http, messages: [JSON.parse(text)] };
      } catch {
        return { http, messages: [{ unparsable: text }] };
      }
    } catch (error) {
      if (controller.signal.aborted) {
        throw new Error(`no response to ${message.method} within ${options.timeoutMs} ms over HTTP (${this.options.url})`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** The `Mcp-Param-*` declarations of the called tool, learned once from tools/list. */
  private async paramHeadersFor(message: JsonRpcRequest, timeoutMs: number): Promise<ParamHeader[]> {
    const params = (message.params ?? {}) as JsonObject;
    const args = params.arguments;
    if (
      message.method !== "tools/call" ||
      typeof params.name !== "string" ||
      !args ||
      typeof args !== "object" ||
      Object.keys(args).length === 0
    ) {
      return [];
    }
    this.toolHeaders ??= this.discoverToolHeaders(timeoutMs).catch(() => new Map());
    return (await this.toolHeaders).get(params.name) ?? [];
  }

  private async discoverToolHeaders(timeoutMs: number): Promise<Map<string, ParamHeader[]>> {
    const found = new Map<string, ParamHeader[]>();
    let cursor: string | undefined;
    // Pages follow until the last (bounded: a server whose cursors never end).
    for (let page = 0; page < 1000; page++) {
      const list: JsonRpcRequest = {
        jsonrpc: "2.0",
        id: `roundtrip-testing-tools-list-${++this.discoveryId}`,
        method: "tools/list",
        params: {
          _meta: { [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: {} },
          ...(cursor !== undefined && { cursor }),
        },
      };
      const { messages } = await this.post(list, { ...mcpRequestHeaders(list), ...this.options.headers }, { timeoutMs });
      const result = (messages.find((m) => isResponseTo(m, list.id)) as JsonRpcResponse | undefined)?.result;
      for (const tool of (result?.tools as { name?: unknown; inputSchema?: unknown }[] | undefined) ?? []) {
        const headers = paramHeadersOf(tool.inputSchema);
        if (typeof tool.name === "string" && headers.length > 0) found.set(tool.name, headers);
      }
      cursor = typeof result?.nextCursor === "string" ? result.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    return found;
  }
}

/** A response to `id`, or an error the server could not tie to any request (no id, or null). */
function isResponseTo(message: unknown, id: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const m = message as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
  if (m.method !== undefined || (m.result === undefined && m.error === undefined)) return false;
  return m.id === id || (m.error !== undefined && (m.id === undefined || m.id === null));
}

/** Reads SSE events until the stream ends or carries a response (the final message). */
async function readEvents(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const messages: unknown[] = [];
  const events = new SseDataReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      for (const data of events.read(done ? decoder.decode() : decoder.decode(value, { stream: true }))) {
        let message: unknown;
        try {
          message = JSON.parse(data);
        } catch {
          message = { unparsable: data };
        }
        messages.push(message);
        const m = message as { method?: unknown; result?: unknown; error?: unknown };
        if (m.method === undefined && (m.result !== undefined || m.error !== undefined)) return messages;
      }
      if (done) return messages;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function lowerCased(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function describeBody(messages: unknown[]): string {
  if (messages.length === 0) return "an empty body";
  const text = JSON.stringify(messages[messages.length - 1]);
  return `body ${text.length > 300 ? `${text.slice(0, 300)}...` : text}`;
}
