import type { JsonObject } from "../../protocol/wire-types";
import { OutputSchemaViolation } from "../output-schema-violation";

/** A prompt's return value as a GetPromptResult: a string is one user message; arrays are messages. */
export function shapePromptResult(def: { where: string; descriptor: JsonObject }, value: unknown): JsonObject {
  let result: JsonObject;
  if (typeof value === "string") result = { messages: [{ role: "user", content: { type: "text", text: value } }] };
  else if (Array.isArray(value)) result = { messages: value };
  else if (value && typeof value === "object" && "messages" in value && Array.isArray(value.messages)) result = { ...value };
  else throw new OutputSchemaViolation(`${def.where} must return a string, an array of messages or { messages }`);
  delete result.resultType;
  const description = (def.descriptor.description as string | undefined) ?? undefined;
  return { resultType: "complete", ...(description !== undefined && result.description === undefined && { description }), ...result };
}
