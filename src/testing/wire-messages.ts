/**
 * The JSON-RPC envelope and the received results the testing kit reads. Declared here (not taken
 * from the official SDK) so that `roundtrip-mcp/testing` speaks the wire itself: what a test sees
 * is exactly what crossed the boundary. MCP shapes the main entry exports (InputRequest,
 * ElicitResult, ToolResult, ClientCapabilities ...) are used from there, not declared again.
 */
import type { PromptMessage, ResourceContents } from "../protocol/content";
import type { CacheScope, JsonObject } from "../protocol/wire-types";
import type { FormSchema } from "../protocol/form-schema";
import type { LogLevel } from "../protocol/request-context";
import type { ElicitResult, UrlElicitRequest } from "../protocol/elicit-request";
import type { CreateMessageRequest, CreateMessageResult } from "../protocol/sampling-request";
import type { ListRootsResult } from "../protocol/roots-request";

/** The protocol revision the kit speaks. */
export const PROTOCOL_VERSION = "2026-07-28";

/** Reserved `_meta` keys of a 2026-07-28 request (DIGEST §1.3). */
export const META = Object.freeze({
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
} as const);

export type JsonRpcId = string | number;

/** Request or notification params: `_meta` and the method's own fields. */
export interface RequestParams {
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** A request as the kit sends it (`params` may hold anything when sent raw). */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: RequestParams;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: RequestParams;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A response exactly as received: `result` or `error`. `id` is absent only on an error the
 * server could not tie to a request (for example an HTTP 401 or 403 body).
 */
export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id?: JsonRpcId | null;
  result?: WireResult;
  error?: JsonRpcErrorObject;
}

/** Any result: `resultType` is "complete", "input_required" or an extension's value. */
export interface WireResult {
  resultType?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** The self-reported client identity sent in `_meta` (display and logging only). */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
}

/**
 * One entry of `inputRequests` as received from any server, so looser than the `InputRequest`
 * this framework sends: a form's `mode` may be absent and its schema is not assumed to be in the
 * subset; a roots request may come without `params`.
 */
export type WireInputRequest =
  | { method: "elicitation/create"; params: { mode?: "form"; message: string; requestedSchema: FormSchema<JsonObject> } }
  | UrlElicitRequest
  | CreateMessageRequest
  | { method: "roots/list"; params?: JsonObject };

/** What a client sends back under an input request's key. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** A complete `resources/read` result (cache hints are required on a complete read). */
export interface ReadResourceResult extends WireResult {
  contents: ResourceContents[];
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export type { PromptMessage };

/** What a server notification's params look like for the two a request may receive. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

export interface LogMessageParams {
  level: LogLevel;
  data: unknown;
  logger?: string;
}
