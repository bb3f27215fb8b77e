import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./wire-messages";

/** Which boundary a test client crosses. */
export type BoundaryName = "in-process" | "stdio" | "http";

/** HTTP facts of one round (HTTP boundary only). */
export interface HttpRound {
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** The request headers the kit sent, names lower-cased. */
  requestHeaders: Record<string, string>;
}

/** One request of a flow and everything that came back for it. */
export interface Round {
  /** The exact JSON-RPC request sent. */
  readonly request: JsonRpcRequest;
  /** The exact JSON-RPC response received. */
  readonly response: JsonRpcResponse;
  /** Notifications received while it was in flight (progress, log messages; over HTTP: on its response stream). */
  readonly notifications: readonly JsonRpcNotification[];
  /** Status and headers, over HTTP. */
  readonly http?: HttpRound;
}

/** What a channel brings back for one request: its round, but for the request the caller already holds. */
export type RoundReply = Omit<Round, "request">;

export interface ChannelRequestOptions {
  timeoutMs: number;
  /** Extra HTTP headers; a header set to undefined is left out (ignored elsewhere). */
  headers?: Record<string, string | undefined>;
}

/**
 * How the kit reaches a server: one JSON-RPC request at a time in, its response (and what came
 * with it) out. In-memory and stdio share a correlating implementation; HTTP posts each request.
 */
export interface Channel {
  readonly boundary: BoundaryName;
  request(message: JsonRpcRequest, options: ChannelRequestOptions): Promise<RoundReply>;
  /** Sends a notification (no response is awaited). */
  notify(message: JsonRpcNotification, options: ChannelRequestOptions): Promise<void>;
  close(): Promise<void>;
}

/** Receives what arrives outside any exchange: stray responses, server requests, unparsable lines. */
export type StrayListener = (message: unknown) => void;

/** Receives every notification, in arrival order. */
export type NotificationListener = (message: JsonRpcNotification) => void;
