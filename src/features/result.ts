import type { InputRequest, InputRequiredResult } from "../protocol/input-request";
import type { ContentBlock, ResourceContents, ResourceLinkFields, ToolResult } from "../protocol/content";
import { inputRequired } from "../elicitation/input-required";

/** Returned by a component with `@Elicit` parameters to have the named questions asked again. */
export interface ReaskResult {
  readonly reask: readonly string[];
}
const REASK = Symbol.for("roundtrip-mcp.reask");

function toBase64(data: string | Uint8Array): string {
  return typeof data === "string" ? data : Buffer.from(data).toString("base64");
}

/**
 * Builders for what components return.
 *
 * @example return Result.structured({ sum: 3 });
 */
export const Result = {
  /** A text tool result. */
  text(text: string): ToolResult {
    return { content: [{ type: "text", text }] };
  },
  /** Structured content with its serialized JSON as a text block beside it (for older clients). */
  structured(value: unknown, text?: string): ToolResult {
    return { content: [{ type: "text", text: text ?? JSON.stringify(value) }], structuredContent: value };
  },
  /** An image block; `data` is base64 or raw bytes. */
  image(data: string | Uint8Array, mimeType: string): ToolResult {
    return { content: [{ type: "image", data: toBase64(data), mimeType }] };
  },
  /** An audio block; `data` is base64 or raw bytes. */
  audio(data: string | Uint8Array, mimeType: string): ToolResult {
    return { content: [{ type: "audio", data: toBase64(data), mimeType }] };
  },
  /** A link to a resource the client may read. */
  resourceLink(uri: string, name: string, fields: ResourceLinkFields = {}): ToolResult {
    return { content: [{ type: "resource_link", uri, name, ...fields }] };
  },
  /** An embedded resource: text, or a blob given as base64 or raw bytes. */
  embeddedResource(resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array })): ToolResult {
    const contents: ResourceContents =
      "text" in resource
        ? { uri: resource.uri, text: resource.text, ...(resource.mimeType && { mimeType: resource.mimeType }) }
        : { uri: resource.uri, blob: toBase64(resource.blob), ...(resource.mimeType && { mimeType: resource.mimeType }) };
    return { content: [{ type: "resource", resource: contents }] };
  },
  /** Several blocks in one result. */
  content(...blocks: (ContentBlock | ToolResult)[]): ToolResult {
    return { content: blocks.flatMap((b) => ("content" in b ? b.content : [b])) };
  },
  /** A tool execution failure the model can read and correct (`isError: true`), not a protocol error. */
  error(message: string): ToolResult {
    return { content: [{ type: "text", text: message }], isError: true };
  },
  /**
   * Ends this round asking for input (MRTR). At least one of the two fields is required;
   * an empty `inputRequests` needs a `requestState`.
   */
  inputRequired(spec: { inputRequests?: Record<string, InputRequest>; requestState?: string }): InputRequiredResult {
    return inputRequired(spec);
  },
  /** From a method with `@Elicit` parameters: drop the carried answers for these keys and ask them again. */
  reask(...keys: string[]): ReaskResult {
    if (keys.length === 0) throw new TypeError("Result.reask needs at least one question key");
    // Through a variable: the brand is a property ReaskResult does not declare.
    const reask = { reask: keys, [REASK]: true };
    return reask;
  },
};

export function isReask(value: unknown): value is ReaskResult {
  return typeof value === "object" && value !== null && REASK in value && value[REASK] === true;
}
