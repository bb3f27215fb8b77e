/**
 * The JSON-RPC and MCP 2026-07-28 shapes the testing kit sends and reads. Declared here (not taken
 * from the official SDK) so that `roundtrip-mcp/testing` speaks the wire itself: what a test sees
 * is exactly what crossed the boundary.
 */
import type { ContentBlock, ResourceContents } from "../dispatch/result";
import type { ClientCapabilities, JsonObject } from "../dispatch/wire-types";
import type { CacheScope } from "../decorators/component-options";
import type { LogLevel } from "../dispatch/request-context";
import type { ElicitationContent } from "../elicitation/form-schema";
import type { CreateMessageResult, SamplingMessage } from "../elicitation/sampling";
import type { ListRootsResult } from "../elicitation/roots";

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

/** Form elicitation as the server sent it (`mode` may be absent: it means form). */
export interface FormElicitationParams {
  mode?: "form";
  message: string;
  requestedSchema: { $schema?: string; type: "object"; properties: Record<string, JsonObject>; required?: string[] };
}

export interface UrlElicitationParams {
  mode: "url";
  message: string;
  url: string;
}

/** One entry of `inputRequests`: a bare request, no `jsonrpc` and no `id`. */
export type WireInputRequest =
  | { method: "elicitation/create"; params: FormElicitationParams | UrlElicitationParams }
  | { method: "sampling/createMessage"; params: { messages: SamplingMessage[]; maxTokens: number; [key: string]: unknown } }
  | { method: "roots/list"; params?: JsonObject };

/** The interim result of a round that needs input. */
export interface InputRequiredWireResult extends WireResult {
  resultType: "input_required";
  inputRequests?: Record<string, WireInputRequest>;
  requestState?: string;
}

/** The user's answer to an elicitation. */
export type ElicitResult = { action: "accept"; content?: ElicitationContent } | { action: "decline" } | { action: "cancel" };

/** What a client sends back under an input request's key. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** A complete `tools/call` result. */
export interface CallToolResult extends WireResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A complete `resources/read` result (cache hints are required on a complete read). */
export interface ReadResourceResult extends WireResult {
  contents: ResourceContents[];
  ttlMs?: number;
  cacheScope?: CacheScope;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/** A complete `prompts/get` result. */
export interface GetPromptResult extends WireResult {
  description?: string;
  messages: PromptMessage[];
}

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

export type { ClientCapabilities, JsonObject, LogLevel };
