/**
 * Answers a test gives to input requests: the bare `InputResponse` bodies of MCP 2026-07-28, built
 * without typing the wire shapes by hand. One family of small builders.
 */
import type { ElicitationContent } from "../protocol/form-schema";
import type { CreateMessageResult, SamplingContent } from "../protocol/sampling-request";
import type { ListRootsResult, Root } from "../protocol/roots-request";
import type { ElicitResult } from "../protocol/elicit-request";

/**
 * The user accepted: with form `content`, or with no content for URL-mode consent.
 *
 * @example await flow.answer({ color: accept({ color: "green" }), consent: accept() });
 */
export function accept(content?: ElicitationContent): ElicitResult {
  return content === undefined ? { action: "accept" } : { action: "accept", content };
}

/**
 * The user explicitly said no.
 *
 * @example await flow.answer({ note: decline() });
 */
export function decline(): ElicitResult {
  return { action: "decline" };
}

/**
 * The user dismissed the question without choosing.
 *
 * @example await flow.answer({ note: cancel() });
 */
export function cancel(): ElicitResult {
  return { action: "cancel" };
}

/** Optional fields of a sampling answer. */
export interface ModelReplyOptions {
  /** Default "test-model". */
  model?: string;
  /** Default "assistant". */
  role?: "user" | "assistant";
  stopReason?: string;
}

/**
 * The client's model replied: a text (or any content block) as a `CreateMessageResult`.
 *
 * @example await flow.answer({ capital: modelReply("Paris") });
 */
export function modelReply(reply: string | SamplingContent, options: ModelReplyOptions = {}): CreateMessageResult {
  return {
    role: options.role ?? "assistant",
    content: typeof reply === "string" ? { type: "text", text: reply } : reply,
    model: options.model ?? "test-model",
    ...(options.stopReason !== undefined && { stopReason: options.stopReason }),
  };
}

/**
 * The client's roots: `file://` URIs, or full `Root` objects.
 *
 * @example await flow.answer({ roots: clientRoots("file:///home/ada/project") });
 */
export function clientRoots(...entries: (string | Root)[]): ListRootsResult {
  return { roots: entries.map((entry) => (typeof entry === "string" ? { uri: entry } : entry)) };
}
