import type { ProgressReporter, RequestLogger } from "./request-context";
import type { ClientCapabilities, JsonObject } from "./wire-types";

/** The protocol era of one request: 2026-07-28 ("modern") or a 2025 revision ("legacy"). */
export type Era = "modern" | "legacy";

/**
 * One request as a transport hands it to the dispatcher, whatever the transport: the method, the
 * raw params and the facts only the transport knows. Internal: components see `RequestContext`.
 */
export interface InboundRequest {
  method: string;
  /** Params exactly as received (including `_meta`, `inputResponses`, `requestState`). */
  params: JsonObject;
  principal: string | null;
  /** Capabilities declared for this request (2025 era: those of `initialize`). */
  clientCapabilities: ClientCapabilities;
  protocolVersion?: string;
  /** "legacy" for a 2025-era request (capabilities from initialize, answers from the SDK's shim). */
  era?: Era;
  /** Retry material as received; undefined when absent. */
  inputResponses?: unknown;
  requestState?: unknown;
  progress?: ProgressReporter;
  log?: RequestLogger;
  signal?: AbortSignal;
}
