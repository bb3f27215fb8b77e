/**
 * Plain wire shapes of MCP 2026-07-28 that the framework reads and writes. Declared here so that
 * nothing outside src/server/ imports the official SDK.
 */
export type JsonObject = { [key: string]: unknown };

export interface ClientCapabilities {
  experimental?: Record<string, JsonObject>;
  roots?: JsonObject;
  sampling?: { context?: JsonObject; tools?: JsonObject; [k: string]: unknown };
  elicitation?: { form?: JsonObject; url?: JsonObject; [k: string]: unknown };
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** Who may cache a result: any cache, or only the requesting principal's. */
export type CacheScope = "public" | "private";

/** Cache hints of the list results (`tools/list`, `prompts/list`, ...). */
export interface ListCacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}
