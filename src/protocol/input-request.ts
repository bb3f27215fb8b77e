import type { ElicitRequest } from "./elicit-request";
import type { ListRootsRequest } from "./roots-request";
import type { CreateMessageRequest } from "./sampling-request";
import type { JsonObject } from "./wire-types";

/** An input request inside `InputRequiredResult.inputRequests`: no jsonrpc, no id. */
export type InputRequest = ElicitRequest | CreateMessageRequest | ListRootsRequest;

/** The interim result of a round that needs input (MRTR). */
export type InputRequiredResult = {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
};
