import { ErrorCode, McpError } from "../protocol/errors";

/** `The question "key" was declined` (or cancelled): how a question ended under `onDecline: "end"`. */
export function endedQuestion(key: string, action: "decline" | "cancel"): string {
  return `The question "${key}" was ${action === "decline" ? "declined" : "cancelled"}`;
}

/** The -32602 a resource or prompt fails with when a question ended it (`data: { key, action }`). */
export function endedQuestionError(key: string, action: "decline" | "cancel"): McpError {
  return new McpError(ErrorCode.InvalidParams, endedQuestion(key, action), { key, action });
}
