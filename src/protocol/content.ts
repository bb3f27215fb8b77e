import type { JsonObject } from "./wire-types";

/** Annotations of a content block or a resource: who it is for, how important, when it changed. */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export type ContentBlock =
  | { type: "text"; text: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: "image"; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: "audio"; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | ({ type: "resource_link"; uri: string; name: string } & ResourceLinkFields)
  | { type: "resource"; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject };

export interface ResourceLinkFields {
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject };

/** A final tools/call result (resultType is stamped by the framework). */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

/** One message of a prompt: what a `@Prompt` method may return in an array, or in `{ messages }`. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/** What a `@Prompt` method may return besides a string or an array of messages. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}
