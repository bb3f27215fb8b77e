import type { Authorization } from "../protocol/authorization";
// What an app, and each connection it serves, is configured with (McpApp.create, serve, connect).
import type { DependencyContainer } from "tsyringe";
import type { RateLimitOptions } from "../dispatch/rate-limiter";
import type { FeatureModule } from "../features/feature-module";
import type { AppLogger } from "../protocol/app-logger";
import type { Middleware, ResultValidator } from "../protocol/middleware";
import type { ListCacheHint } from "../protocol/wire-types";
import type { StateOptions } from "../state/state-options";
import type { TelemetryOptions } from "../dispatch/telemetry/telemetry-options";
import type { CloseOptions } from "./http/listen-options";
import type { RequestLimits } from "./checks/request-limits";
import type { MessageBus } from "../stores/message-bus";
import type { SessionOptions } from "./http/sessions/session-options";
import type { Icon } from "../decorators/component-options";
import type { EnvironmentVariable, Repository } from "./request/app-info";

export interface McpAppOptions {
  /** Decorated component classes. */
  components: Function[];
  /** Server name and version published in `serverInfo`. */
  name?: string;
  version?: string;
  title?: string;
  /** What the server does, in a sentence (`serverInfo.description`; a server card and `server.json` take it too, at most 100 characters there). */
  description?: string;
  /** Icons hosts may show for the server (`serverInfo.icons`): https URLs or data: URIs. */
  icons?: Icon[];
  /** The server's homepage or documentation (`serverInfo.websiteUrl`). */
  websiteUrl?: string;
  /** The server's name in the MCP Registry, reverse-DNS ("io.github.acme/weather"): a server card's `name`; package.json's `mcpName` must match. */
  mcpName?: string;
  /** Where the source lives, for a server card and `server.json`. */
  repository?: Repository;
  /**
   * The environment variables the server reads, for `server.json` (`state: { keysFromEnv }`'s is
   * added by itself, required and secret).
   */
  environment?: EnvironmentVariable[];
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
  /**
   * Entries per page of `tools/list`, `resources/list`, `resources/templates/list` and
   * `prompts/list` (default 100). A longer list answers its first page with a `nextCursor`: an
   * opaque cursor sealed with the app's state keys, good for that list, that caller and that
   * view of the list for 15 minutes. See docs/lists.md.
   */
  listPageSize?: number;
  /**
   * Which OAuth scope implies which, transitively, given once for the app: a token granted the
   * key is granted every scope listed under it. A MUST of the 2026-07-28 authorization spec.
   *
   * @example scopeHierarchy: { preferences: ["preferences:read", "preferences:admin"] }
   */
  scopeHierarchy?: Readonly<Record<string, readonly string[]>>;
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
   * Spans and metrics per the OpenTelemetry semantic conventions for MCP (docs/telemetry.md):
   * one SERVER span per request, the `mcp.server.operation.duration` histogram, task attempts as
   * linked spans. Needs `@opentelemetry/api` installed (an optional peer dependency), loaded only
   * when this is set. `true` uses the global providers. Default off: nothing is loaded, nothing recorded.
   *
   * @example McpApp.create({ components, state, telemetry: true })
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * Rate limits per principal and per component (token buckets), checked before every round of a
   * tool, resource or prompt on every transport: `default` for every component, a component's own
   * `rateLimit` option over it. A refused call is -32010 with `data` `{ limit, windowMs,
   * retryAfter, retryAfterMs }` (over HTTP, status 429 with `Retry-After`). Per instance by
   * default; give `store` to share the budget. See docs/rate-limits.md.
   *
   * @example McpApp.create({ components, state, rateLimits: { default: { limit: 60, windowMs: 60_000 } } })
   */
  rateLimits?: RateLimitOptions;
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
  /**
   * What every request on this connection is authorized for (its scopes and claims), as a
   * verified token would say over HTTP: lets a test act as a principal with given scopes
   * (`client.as(principal, { scopes })`). Default none: the connection is not restricted by scopes.
   */
  authorization?: Authorization;
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
