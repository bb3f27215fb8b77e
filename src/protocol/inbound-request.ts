import type { Authorization } from "./authorization";
import type { Cancellation } from "./cancellation";
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
  /** The JSON-RPC id, when the transport gives it (telemetry's `jsonrpc.request.id`, the log scope). */
  requestId?: string | number;
  /** The transport it came over, when known: "http" (Streamable HTTP) or "stdio"; undefined in-process. */
  transportKind?: "http" | "stdio";
  /** The MCP session it belongs to (2025 sessions over HTTP), when there is one. */
  sessionId?: string;
  /** Params exactly as received (including `_meta`, `inputResponses`, `requestState`). */
  params: JsonObject;
  principal: string | null;
  /** What the request's verified token granted; absent when the transport does not authorize by OAuth. */
  authorization?: Authorization;
  /** Capabilities declared for this request (2025 era: those of `initialize`). */
  clientCapabilities: ClientCapabilities;
  protocolVersion?: string;
  /**
   * A 2025-era request: the revision its client negotiated at initialize ("2025-06-18",
   * "2025-11-25"), when the transport knows it. What the client can be asked depends on it: URL
   * elicitation came with 2025-11-25, so a refusal names the revision a client would need.
   */
  negotiatedVersion?: string;
  /** "legacy" for a 2025-era request (capabilities from initialize, answers from the SDK's shim). */
  era?: Era;
  /**
   * True when the transport cannot know what the client declared: a 2025-era request over HTTP
   * outside a session (its `initialize` was answered elsewhere, or sessions are off). A refusal
   * then says so, instead of saying the client did not declare a capability.
   */
  capabilitiesUnknown?: boolean;
  /** Retry material as received; undefined when absent. */
  inputResponses?: unknown;
  requestState?: unknown;
  /**
   * The lifetime in seconds of state sealed for this request without a `ttl`, when longer than the
   * sealer's default: a 2025 session's rounds set it so their state outlasts the wait for the answer.
   */
  stateLifetimeSeconds?: number;
  progress?: ProgressReporter;
  log?: RequestLogger;
  /** The request's cancellation: asked `cancelled` by every round, its `signal` read only when a handler reads `ctx.signal`. */
  cancellation?: Cancellation;
  /**
   * True when `params`, `clientCapabilities` and `inputResponses` were made for this request alone
   * (parsed from its own bytes) and nobody else holds them: the dispatcher then freezes them in
   * place instead of copying them. Leave it out for objects shared with anyone who may change them
   * later (an in-memory client's own objects, a body another framework parsed), or when unsure:
   * the dispatcher then works on frozen copies.
   */
  exclusive?: boolean;
}
