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

/** An input request inside `InputRequiredResult.inputRequests`: no jsonrpc, no id. */
export type InputRequest =
  | { method: "elicitation/create"; params: ElicitRequestParams }
  | { method: "sampling/createMessage"; params: JsonObject }
  | { method: "roots/list"; params?: JsonObject };

export type ElicitRequestParams =
  | { mode: "form"; message: string; requestedSchema: ElicitationSchema }
  | { mode: "url"; message: string; url: string };

/** The restricted flat form schema of elicitation/create. */
export interface ElicitationSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, JsonObject>;
  required?: string[];
}

export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
}
