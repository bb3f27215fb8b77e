import type { Authorization } from "./authorization";
import type { ClientCapabilities, JsonObject } from "./wire-types";

/** Levels of the deprecated per-request logging (`notifications/message`). */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Sends `notifications/progress` for this request; a no-op when the request carried no progressToken. */
export interface ProgressReporter {
  /** True when the request carried a `progressToken`. */
  readonly enabled: boolean;
  report(progress: number, total?: number, message?: string): Promise<void>;
}

/**
 * Sends `notifications/message` on this request's own response stream, and only when the
 * request's `_meta` carried `io.modelcontextprotocol/logLevel` (at or above that level).
 */
export interface RequestLogger {
  /** The level the request asked for, or undefined (then nothing is ever sent). */
  readonly level: LogLevel | undefined;
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
}

/** The progress reporter of a request that carried no `progressToken`: reports go nowhere. */
export const NO_PROGRESS: ProgressReporter = Object.freeze({ enabled: false, report: async () => {} });

/** The logger of a request that asked for no log level: nothing is ever sent. */
export const NO_LOG: RequestLogger = Object.freeze({ level: undefined, log: async () => {} });

/** The method and params a sealed state is bound to. Every RequestContext is one. */
export interface StateBinding {
  readonly requestMethod: string;
  readonly requestParams: Readonly<JsonObject>;
}

/** What `Elicitation.response` reads: the answers carried by this round. */
export interface InputResponseSource {
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Everything the framework knows about one request (one round of an interactive operation).
 * Framework-owned and read-only: middleware and components read it, never rewrite it.
 * Inject it into a handler with `@Ctx()`.
 */
export interface RequestContext extends StateBinding, InputResponseSource {
  /** Raw params as received, `_meta`, `inputResponses` and `requestState` included. */
  readonly requestParams: Readonly<JsonObject>;
  /** The authenticated principal, or null for anonymous. */
  readonly principal: string | null;
  /**
   * What the request's verified access token granted (scopes as granted, verified claims), or
   * undefined when the transport does not authorize by OAuth (stdio, in-memory, `listen()` without `auth`).
   */
  readonly authorization: Authorization | undefined;
  /** Capabilities the client declared on this very request (`{}` when none). */
  readonly clientCapabilities: Readonly<ClientCapabilities>;
  /** The protocol version the request declared. */
  readonly protocolVersion: string | undefined;
  /** This round's `requestState` string, if any (opaque; opened by the dispatcher). */
  readonly requestState: string | undefined;
  readonly progress: ProgressReporter;
  readonly log: RequestLogger;
  /** Aborted when the client cancels the request or the transport closes. */
  readonly signal: AbortSignal;
}
