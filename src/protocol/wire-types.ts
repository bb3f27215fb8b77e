/**
 * Plain wire shapes of MCP 2026-07-28 that the framework reads and writes. Declared here so that
 * nothing outside src/server/ imports the official SDK.
 */
import type { ElicitRequest } from "./elicit-request";
import type { ListRootsRequest } from "./roots-request";
import type { CreateMessageRequest } from "./sampling-request";

export type JsonObject = { [key: string]: unknown };

export interface ClientCapabilities {
  experimental?: Record<string, JsonObject>;
  roots?: JsonObject;
  sampling?: { context?: JsonObject; tools?: JsonObject; [k: string]: unknown };
  elicitation?: { form?: JsonObject; url?: JsonObject; [k: string]: unknown };
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** An input request inside `InputRequiredResult.inputRequests`: no jsonrpc, no id. */
export type InputRequest = ElicitRequest | CreateMessageRequest | ListRootsRequest;

/** The interim result of a round that needs input (MRTR). */
export type InputRequiredResult = {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
};

/** Who may cache a result: any cache, or only the requesting principal's. */
export type CacheScope = "public" | "private";

/** Cache hints of the list results (`tools/list`, `prompts/list`, ...). */
export interface ListCacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}
