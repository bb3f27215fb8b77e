import type { PromptDefinition, ResourceDefinition, ToolDefinition } from "../registry/definitions";
import { describeViolations } from "../schema/dto-validator";
import { ErrorCode, McpError } from "../protocol/errors";
import type { JsonObject } from "../protocol/wire-types";

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** Thrown when a final structured result breaks the declared outputSchema: a server bug, never the client's. */
export class OutputSchemaViolation extends Error {
  override readonly name = "OutputSchemaViolation";
}

function isToolResult(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Array.isArray((value as JsonObject).content);
}

/**
 * A tool's return value as a CallToolResult: a string is text; a result from `Result.*` passes through;
 * any other value is structured content (with its JSON text beside it). Output schema checked here.
 */
export async function shapeToolResult(def: ToolDefinition, value: unknown): Promise<JsonObject> {
  let result: JsonObject;
  if (typeof value === "string") result = { content: [{ type: "text", text: value }] };
  else if (isToolResult(value)) {
    const blocks = value.content as unknown[];
    for (const block of blocks) {
      if (!block || typeof block !== "object" || !CONTENT_TYPES.has((block as JsonObject).type as string)) {
        throw new OutputSchemaViolation(`${def.where} returned a content block of unknown type`);
      }
    }
    result = { ...value };
    delete result.resultType;
  } else if (value === undefined) result = { content: [] };
  else result = { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };

  if (def.checkOutput && result.isError !== true) {
    if (!("structuredContent" in result)) {
      throw new OutputSchemaViolation(`${def.where} declares an outputSchema but returned no structured content`);
    }
    const violations = await def.checkOutput(result.structuredContent);
    if (violations.length > 0) {
      throw new OutputSchemaViolation(`${def.where} returned structured content that breaks its outputSchema: ${describeViolations(violations)}`);
    }
  }
  return { resultType: "complete", ...result };
}

/**
 * A resource's return value as a ReadResourceResult with cache hints: a string is text, bytes are a
 * blob, `{ text }`/`{ blob }` objects or arrays of them are contents. `undefined`, `null` or nothing
 * means the resource does not exist (-32602 with `data.uri`).
 */
export function shapeResourceResult(def: ResourceDefinition, uri: string, value: unknown): JsonObject {
  const mime = def.mimeType === undefined ? {} : { mimeType: def.mimeType };
  let contents: JsonObject[];
  if (value === undefined || value === null) contents = [];
  else if (typeof value === "string") contents = [{ uri, ...mime, text: value }];
  else if (value instanceof Uint8Array) contents = [{ uri, ...mime, blob: Buffer.from(value).toString("base64") }];
  else if (typeof value === "object" && Array.isArray((value as JsonObject).contents)) contents = (value as { contents: JsonObject[] }).contents;
  else if (Array.isArray(value)) contents = value as JsonObject[];
  else contents = [value as JsonObject];
  if (contents.length === 0) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
  contents = contents.map((c) => {
    if (!c || typeof c !== "object" || (typeof c.text !== "string" && typeof c.blob !== "string")) {
      throw new OutputSchemaViolation(`${def.where} returned resource contents without a text or blob string`);
    }
    return { uri, ...mime, ...c };
  });
  return { resultType: "complete", contents, ttlMs: def.ttlMs, cacheScope: def.cacheScope };
}

/** A prompt's return value as a GetPromptResult: a string is one user message; arrays are messages. */
export function shapePromptResult(def: PromptDefinition, value: unknown): JsonObject {
  let result: JsonObject;
  if (typeof value === "string") result = { messages: [{ role: "user", content: { type: "text", text: value } }] };
  else if (Array.isArray(value)) result = { messages: value };
  else if (value && typeof value === "object" && Array.isArray((value as JsonObject).messages)) result = { ...(value as JsonObject) };
  else throw new OutputSchemaViolation(`${def.where} must return a string, an array of messages or { messages }`);
  delete result.resultType;
  const description = (def.descriptor.description as string | undefined) ?? undefined;
  return { resultType: "complete", ...(description !== undefined && result.description === undefined && { description }), ...result };
}
