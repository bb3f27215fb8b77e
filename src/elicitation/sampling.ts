import type { InputResponseSource } from "../protocol/request-context";
import type { CreateMessageParams, CreateMessageRequest, CreateMessageResult, SamplingContent } from "../protocol/sampling-request";
import { frozenCopy } from "../protocol/frozen-copy";
import { InputRequestError } from "./input-request-error";
import { assertInputRequest, isContent, samplingParamsProblem } from "./input-request-shape";
import { inputResponseEntry, invalidInputResponse, type InputAnswer } from "./input-response-entry";
import { isPlainObject } from "../protocol/plain-object";
import { ValidatedRequests } from "./validated-requests";

/** The -32602 message for any invalid sampling answer. */
export const INVALID_SAMPLING_RESPONSE = "Invalid sampling response";

/**
 * Sampling input requests (deprecated by SEP-2577 but still part of 2026-07-28; prefer
 * elicitation). Same pattern as `Elicitation`: build, ask with `Result.inputRequired`, read on retry.
 */
export const Sampling = {
  /**
   * A bare `sampling/createMessage` request, checked minimally now (non-empty messages of
   * `{ role, content }`, positive integer maxTokens, known includeContext) and frozen.
   * A request with `tools` or `toolChoice` needs the client's `sampling.tools` capability.
   *
   * @example const ask = Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Summarise" } }], maxTokens: 200 });
   */
  createMessage(params: CreateMessageParams): CreateMessageRequest {
    const problem = samplingParamsProblem(params);
    if (problem !== undefined) throw new InputRequestError(`Invalid sampling request: ${problem}`);
    return ValidatedRequests.add(frozenCopy({ method: "sampling/createMessage" as const, params }));
  },

  /**
   * This round's answer under `key`: `{ status: "missing" }`, or `{ status: "answered", result }`
   * when it looks like a CreateMessageResult (`role` user/assistant, `content` block(s), string
   * `model`, optional string `stopReason`). Anything else present throws `McpError` -32602
   * "Invalid sampling response" with `data: { key, reason }`.
   *
   * @example const answer = Sampling.response(ctx, "summary", ask);
   */
  /** Missing, or the client's sampled message. A client that gives up on sampling never retries. */
  response(source: InputResponseSource, key: string, request: CreateMessageRequest): InputAnswer<{ result: CreateMessageResult }> {
    assertInputRequest(request, "sampling request");
    if (request.method !== "sampling/createMessage") {
      throw new TypeError(`Sampling.response reads sampling/createMessage answers, not ${String(request.method)}`);
    }
    const found = inputResponseEntry(source, key, INVALID_SAMPLING_RESPONSE);
    if (found === undefined) return { status: "missing" };
    const invalid = (reason: string) => invalidInputResponse(INVALID_SAMPLING_RESPONSE, key, reason);
    const entry = found.entry;
    if (!isPlainObject(entry)) throw invalid("entry: not an object");
    if (entry.role !== "user" && entry.role !== "assistant") throw invalid("role: not user or assistant");
    if (!isContent(entry.content)) throw invalid("content: not a content block");
    if (typeof entry.model !== "string") throw invalid("model: not a string");
    if (entry.stopReason !== undefined && typeof entry.stopReason !== "string") throw invalid("stopReason: not a string");
    if (entry._meta !== undefined && !isPlainObject(entry._meta)) throw invalid("_meta: not an object");
    const result: CreateMessageResult = {
      role: entry.role,
      content: structuredClone(entry.content) as SamplingContent,
      model: entry.model,
      ...(typeof entry.stopReason === "string" ? { stopReason: entry.stopReason } : {}),
      ...(entry._meta !== undefined ? { _meta: structuredClone(entry._meta) } : {}),
    };
    return { status: "answered", result };
  },
};
