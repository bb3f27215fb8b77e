import { describeViolations } from "../../schema/dto-validator";
import { andThen, type MaybePromise } from "../../protocol/maybe-async";
import type { JsonObject } from "../../protocol/wire-types";
import type { OutputCheck } from "../component-definition";
import { OutputSchemaViolation } from "../output-schema-violation";

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

function isToolResult(value: unknown): value is JsonObject & { content: unknown[] } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "content" in value && Array.isArray(value.content);
}

/**
 * A tool's return value as a CallToolResult: a string is text; a result from `Result.*` passes through;
 * any other value is structured content (with its JSON text beside it). Output schema checked here.
 */
export function shapeToolResult(def: { where: string; checkOutput?: OutputCheck }, value: unknown): MaybePromise<JsonObject> {
  let result: JsonObject;
  if (typeof value === "string") result = { content: [{ type: "text", text: value }] };
  else if (isToolResult(value)) {
    for (const block of value.content) {
      if (!block || typeof block !== "object" || !("type" in block) || typeof block.type !== "string" || !CONTENT_TYPES.has(block.type)) {
        throw new OutputSchemaViolation(`${def.where} returned a content block of unknown type`);
      }
    }
    // Copied without its resultType (a rest copy: `delete` would leave a slow dictionary object).
    const { resultType: _resultType, ...rest } = value;
    result = rest;
  } else if (value === undefined) result = { content: [] };
  else result = { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };

  const complete = (): JsonObject => ({ resultType: "complete", ...result });
  if (!def.checkOutput || result.isError === true) return complete();
  if (!("structuredContent" in result)) {
    throw new OutputSchemaViolation(`${def.where} declares an outputSchema but returned no structured content`);
  }
  return andThen(def.checkOutput(result.structuredContent), (violations) => {
    if (violations.length > 0) {
      throw new OutputSchemaViolation(
        `${def.where} returned structured content that breaks its outputSchema: ${describeViolations(violations)}`,
      );
    }
    return complete();
  });
}
