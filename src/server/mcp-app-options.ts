// What an app, and each connection it serves, is configured with (McpApp.create, serve, connect).
import type { DependencyContainer } from "tsyringe";
import type { FeatureModule } from "../features/feature-module";
import type { AppLogger } from "../protocol/app-logger";
import type { Middleware, ResultValidator } from "../protocol/middleware";
import type { ListCacheHint } from "../protocol/wire-types";
import type { StateOptions } from "../state/state-options";
import type { CloseOptions } from "./http/listen-options";
import type { RequestLimits } from "./checks/request-limits";
import type { MessageBus } from "../stores/message-bus";
import type { SessionOptions } from "./http/sessions/session-options";

export interface McpAppOptions {
  /** Decorated component classes. */
  components: Function[];
  /** Server name and version published in `serverInfo`. */
  name?: string;
  version?: string;
  title?: string;
  instructions?: string;
  /** The tsyringe container to register into; default a child of the global container. */
  container?: DependencyContainer;
  /**
   * How requestState is sealed: `{ secret }`, `{ keys }`, `{ keysFromEnv: "VAR" }`, or
   * `{ ephemeral: true }` for local development. Optional when the container already has a
   * `StateSealer` registered.
   */
  state?: StateOptions;
  /** Diagnostic logger (stderr JSON lines by default; never stdout, which stdio uses). */
  logger?: AppLogger;
  /** App-wide middleware, run before each component's own, on every round. */
  middleware?: Middleware[];
  /** Runs on every final result. */
  resultValidator?: ResultValidator;
  /** Cache hints for list results. Default `{ ttlMs: 0, cacheScope: "private" }`. */
  listCache?: ListCacheHint;
  /** Principal for requests arriving over stdio or in-process (no transport authentication). Default null. */
  localPrincipal?: string | null;
  /**
   * Features beyond the built-in tools, resources, prompts and completion (protocol extensions),
   * each made by its own function with its own options.
   */
  features?: FeatureModule[];
  /**
   * Bounds on every request, on every transport, checked before anything parses or validates it
   * (see `RequestLimits` for each limit and its default). Give only the ones to change.
   *
   * @example McpApp.create({ components, state, limits: { maxBodyBytes: 16 * 1024 * 1024 } })
   */
  limits?: Partial<RequestLimits>;
  /**
   * Milliseconds one round of a component may take (middleware included) when the component sets
   * no `timeoutMs` of its own. On expiry the request's signal aborts and the client gets -32603
   * "Request timed out" with `data.timeoutMs`, even if the handler ignores the signal. Default 60,000.
   */
  timeoutMs?: number;
  /**
   * The fast lane: well-formed modern (2026-07-28) requests for the dispatcher's own methods, over
   * HTTP and stdio, are answered straight from the dispatcher with the same bytes, key order and
   * HTTP status as the SDK path; everything else takes the SDK path. The one switch of the lane:
   * `listen({ fastLane })` is the same switch for one listener. Default on; the environment variable
   * `ROUNDTRIP_FAST_LANE=off` turns the default off, for CI's lane-off conformance run
   * (`npm run conformance:lane-off`).
   */
  fastLane?: boolean;
  /**
   * Development only: the message of an unexpected error reaches the client (a tool's `isError`
   * text, the -32603 message) instead of a generic text with its error id. Default false: the
   * details go to the logger only. Never turn it on where clients are not yours: messages carry
   * paths, queries and secrets.
   */
  exposeErrors?: boolean;
  /**
   * 2025-11-25 sessions over HTTP (`listen()` and every `httpHandler()`): a 2025-era client's
   * `initialize` gets an `Mcp-Session-Id`, and a round that must ask it something (elicitation,
   * sampling, roots) asks on the request's SSE stream and resumes when the client POSTs its answer.
   * Give bounds to change (see `SessionOptions` for each default), or `false` for the stateless
   * 2025 serving of before (no session; such a client then cannot be asked anything). Default on.
   */
  sessions?: SessionOptions | false;
  /**
   * The bus shared by every instance serving this app: a 2025 client's answer POSTed to one
   * instance reaches the round waiting on another. Default an in-memory bus (one process); give a
   * shared one (PostgreSQL) to run several instances behind a plain load balancer. A bus given
   * here is not closed by `app.close()`.
   */
  bus?: MessageBus;
}

/** Options of `serve`, `serveStdio` and `connect`. */
export interface ServeOptions {
  /** Serve 2025-era clients on this connection (default "serve"). */
  legacy?: "serve" | "reject";
  /**
   * Principal of every request on this connection, instead of the app's `localPrincipal`: lets a
   * test act as another user in-process (`roundtrip-mcp/testing` uses it for `client.as(...)`).
   *
   * @example const transport = await app.connect({ principal: "alice" });
   */
  principal?: string | null;
}

/** One connection being served. */
export interface ServedConnection {
  /**
   * Closes gracefully: new requests are answered -32000 ("shutting down") with their id, those in
   * flight are answered (up to `drainTimeoutMs`, default 10,000; then they are dropped), then the
   * transport closes.
   */
  close(options?: CloseOptions): Promise<void>;
}
