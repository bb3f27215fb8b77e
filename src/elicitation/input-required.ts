import type { InputRequest, InputRequiredResult } from "../protocol/input-request";
import { assertInputRequest } from "./input-request-shape";
import { isPlainObject } from "../protocol/plain-object";

/** What to ask for and/or the state to carry to the retry. At least one is required. */
export interface InputRequiredOptions {
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
}

/**
 * Ends this round with `{ resultType: "input_required", inputRequests?, requestState? }`; the
 * client answers and retries. Checked here because schema.json does not:
 * - at least one of `inputRequests` / `requestState` (spec MUST);
 * - `requestState`, when given, is a non-empty string;
 * - an empty `inputRequests` map needs a state string: the official TypeScript client rejects
 *   an empty map without one. With a state it means "nothing to ask" and is left out;
 * - keys are non-empty and every request is a well-formed elicitation/create,
 *   sampling/createMessage or roots/list request (builder-made ones were checked already).
 * Throws `Error` (a programming error, not a wire error).
 *
 * @example return Result.inputRequired({ inputRequests: { contact: Elicitation.form("Your e-mail?", ContactDto) }, requestState: sealed });
 */
export function inputRequired(options: InputRequiredOptions): InputRequiredResult {
  const { inputRequests, requestState } = options;
  if (inputRequests === undefined && requestState === undefined) {
    throw new Error("inputRequired needs inputRequests, requestState or both (MCP 2026-07-28 §InputRequiredResult)");
  }
  if (requestState !== undefined && (typeof requestState !== "string" || requestState.length === 0)) {
    throw new Error("inputRequired: requestState must be a non-empty string");
  }
  if (inputRequests === undefined) return { resultType: "input_required", requestState };
  if (!isPlainObject(inputRequests)) throw new Error("inputRequired: inputRequests must be an object keyed by name");
  const keys = Object.keys(inputRequests);
  if (keys.length === 0) {
    if (requestState === undefined) {
      throw new Error(
        "inputRequired: an empty inputRequests map without a requestState is rejected by the official " +
          "TypeScript client; ask for at least one input, or return a state-only result",
      );
    }
    return { resultType: "input_required", requestState };
  }
  for (const key of keys) {
    if (key.length === 0) throw new Error("inputRequired: input request keys must be non-empty");
    assertInputRequest(inputRequests[key], `input request "${key}"`);
  }
  return {
    resultType: "input_required",
    inputRequests: { ...inputRequests },
    ...(requestState !== undefined ? { requestState } : {}),
  };
}
