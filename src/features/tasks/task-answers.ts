import { Elicitation } from "../../elicitation/elicitation";
import { Roots } from "../../elicitation/roots";
import { Sampling } from "../../elicitation/sampling";
import type { CreateMessageRequest } from "../../protocol/sampling-request";
import type { ElicitRequest } from "../../protocol/elicit-request";
import type { ListRootsRequest } from "../../protocol/roots-request";
import type { JsonValue } from "../../stores/json-value";
import type { JsonObject } from "../../protocol/wire-types";

/**
 * The answers of a `tasks/update` that the task is waiting for, each checked against the request
 * it answers, exactly as an MRTR round checks them: an invalid one is -32602 naming its key and
 * the rule it breaks (never the value). Keys the task is not waiting for are left out, unread.
 */
export function outstandingAnswers(outstanding: JsonObject, responses: Readonly<Record<string, unknown>>): JsonObject {
  const accepted: Record<string, JsonValue> = {};
  for (const [key, request] of Object.entries(outstanding)) {
    if (!Object.hasOwn(responses, key)) continue;
    checkAnswer({ inputResponses: responses }, key, request as { method: string });
    accepted[key] = responses[key] as JsonValue;
  }
  return accepted;
}

function checkAnswer(source: { inputResponses: Readonly<Record<string, unknown>> }, key: string, request: { method: string }): void {
  switch (request.method) {
    case "elicitation/create":
      Elicitation.response(source, key, request as ElicitRequest);
      return;
    case "sampling/createMessage":
      Sampling.response(source, key, request as CreateMessageRequest);
      return;
    case "roots/list":
      Roots.response(source, key, request as ListRootsRequest);
      return;
  }
}
