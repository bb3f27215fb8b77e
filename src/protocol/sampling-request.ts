import type { JsonObject } from "./wire-types";

export type SamplingRole = "user" | "assistant";
/** A content block: text, image, audio, tool_use, tool_result... (`type` decides the rest). */
export type SamplingContentBlock = { type: string; [field: string]: unknown };
export type SamplingContent = SamplingContentBlock | SamplingContentBlock[];
export type SamplingMessage = { role: SamplingRole; content: SamplingContent; _meta?: JsonObject };

/** `sampling/createMessage` params (MCP 2026-07-28 CreateMessageRequestParams). */
export type CreateMessageParams = {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: JsonObject;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: JsonObject[];
  toolChoice?: JsonObject;
  _meta?: JsonObject;
};

/** A bare `sampling/createMessage` input request. */
export type CreateMessageRequest = { method: "sampling/createMessage"; params: CreateMessageParams };

/** What the client's model produced (CreateMessageResult), with unknown keys dropped. */
export type CreateMessageResult = {
  role: SamplingRole;
  content: SamplingContent;
  model: string;
  stopReason?: string;
  _meta?: JsonObject;
};
