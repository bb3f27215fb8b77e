import { McpError, ErrorCode } from "../protocol/errors";
import type { InputResponseSource } from "../protocol/request-context";
import { isPlainObject } from "../protocol/plain-object";

/**
 * This round's answer to one input request, read: `{ status: "missing" }` when the round carries
 * none, else `{ status: "answered" }` with what was answered (`A`). The one shape that
 * `Elicitation.response`, `Sampling.response` and `Roots.response` return.
 *
 * @example const answer: InputAnswer<{ result: ListRootsResult }> = Roots.response(ctx, "roots");
 */
export type InputAnswer<A> = { status: "missing" } | ({ status: "answered" } & A);

/**
 * The raw entry this round carries under `key`, or undefined when there is none (no
 * `inputResponses`, or no own entry under the key). A `null` entry is present, and invalid
 * later. `inputResponses: null` counts as absent; an `inputResponses` that is not an object is
 * invalid. Other keys are never looked at.
 */
export function inputResponseEntry(source: InputResponseSource, key: string, errorMessage: string): { entry: unknown } | undefined {
  const responses: unknown = source.inputResponses;
  if (responses === undefined || responses === null) return undefined;
  if (!isPlainObject(responses)) throw invalidInputResponse(errorMessage, key, "inputResponses: not an object");
  if (!Object.prototype.hasOwnProperty.call(responses, key) || responses[key] === undefined) return undefined;
  return { entry: responses[key] };
}

/**
 * The -32602 error for a present but invalid answer. `data` names the key and the broken rule,
 * never the submitted value.
 */
export function invalidInputResponse(message: string, key: string, reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message, { key, reason });
}
