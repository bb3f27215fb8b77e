import type { Dispatcher } from "../../dispatch/dispatcher";
import type { InboundRequest } from "../../protocol/inbound-request";
import type { JsonObject } from "../../protocol/wire-types";
import type { TransportFacts } from "./transport-facts";

/**
 * The one call into the dispatcher, for every transport and both paths (the lane's
 * `FastLane.answer` and the SDK bridge's handlers): where a per-request span or metric wraps the
 * dispatch, with the request's transport facts (`facts.transport`, `facts.principal`) at hand.
 */
export function dispatchRequest(dispatcher: Dispatcher, request: InboundRequest, _facts: TransportFacts): Promise<JsonObject> {
  return dispatcher.handle(request);
}
