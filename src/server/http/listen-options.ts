import type { AuthOptions } from "../../auth/bearer-auth";
import type { IncomingMessage } from "node:http";
import type { HealthOptions } from "./health";
import type { ServerCardOptions } from "./server-card";

// What `listen()` and a graceful close are configured with, and what a running listener is.

/** Maps an HTTP request to a principal; return null to reject it with 401. */
export type Authenticator = (request: IncomingMessage) => Promise<string | null> | string | null;

export interface ListenOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Default "/mcp". */
  path?: string;
  /**
   * Host names accepted in the Host header (and Origin, when present). Default: localhost,
   * 127.0.0.1 and [::1]. Set it when binding to another interface behind a known name.
   */
  allowedHosts?: string[];
  /** Origins' host names accepted; default the same as allowedHosts. */
  allowedOrigins?: string[];
  /**
   * Authenticates every request; when set, a request it maps to null gets 401 (`WWW-Authenticate: Bearer`).
   * The simple path, for a principal from credentials of your own; `auth` makes the listener an
   * OAuth 2.1 resource server instead. Give one or the other.
   */
  authenticate?: Authenticator;
  /**
   * OAuth 2.1 resource server: every request needs a bearer token the verifier accepts for this
   * server's canonical URI (`auth.resource`, default this listener's URL), the protected resource
   * metadata is served at its path-aware well-known URL, and refusals carry the exact challenges.
   * See docs/authorization.md.
   */
  auth?: AuthOptions;
  /** Time a client has to send a request's headers, in milliseconds. Default 10,000 (at most `requestTimeoutMs`). */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, headers and body, in milliseconds; then 408 and the connection closes. Default 30,000. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, in milliseconds. Default 5,000. */
  keepAliveTimeoutMs?: number;
  /**
   * Most connections open at once. A connection over the cap is answered `503` with
   * `Retry-After: 1` and `Connection: close` as soon as it opens, then closed. Default 1,000.
   */
  maxConnections?: number;
  /**
   * How long `close()` lets the requests in flight finish, in milliseconds; each one still running
   * then is answered 503 (or cut, when its answer had begun). `close({ drainTimeoutMs })`
   * overrides it per call. Default 10,000.
   */
  drainTimeoutMs?: number;
  /**
   * The app's `fastLane` switch for this listener alone (the differential run serves one app with
   * and without the lane). Default: the app's.
   */
  fastLane?: boolean;
  /**
   * Liveness and readiness endpoints on this listener (`true`: the defaults, /healthz and
   * /readyz), answered after the Host and Origin checks and before authentication (a probe has
   * no credentials; give it the Host header your `allowedHosts` names). Readiness is 503 while a
   * dependency cannot be reached and from the moment a graceful close begins. Default: none.
   */
  health?: boolean | HealthOptions;
  /**
   * The app's server card (SEP-2127) at `<path>/server-card` (`/mcp/server-card`):
   * `application/mcp-server-card+json` with CORS, `Cache-Control` and an `ETag` (`If-None-Match`
   * answered 304), public like the health endpoints. `true`: the defaults (the card names this
   * listener's URL, or the OAuth resource, and lists a required `Authorization` header when `auth`
   * is on). The app needs `mcpName` and `description`. See docs/deployment.md, "Discovery".
   */
  serverCard?: boolean | ServerCardOptions;
}

/** Options of a graceful close (`HttpListener.close`, `McpApp.close`, `ServedConnection.close`). */
export interface CloseOptions {
  /** How long requests in flight may take to finish, in milliseconds (0: end them at once). Default: the listener's `drainTimeoutMs`, 10,000. */
  drainTimeoutMs?: number;
}

/** A running HTTP listener. */
export interface HttpListener {
  readonly url: string;
  readonly port: number;
  /**
   * Closes gracefully: new requests and connections are answered 503 with `Retry-After`, requests
   * in flight finish (up to the drain deadline; the rest are answered 503 or cut), open listen
   * streams end with their final result, then the port is freed. The app's logger gets one line
   * with the counts. Calling it again returns the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** How long a close lets requests in flight finish unless told otherwise, in milliseconds. */
export const DEFAULT_DRAIN_MS = 10_000;

/** A drain deadline: 0 or more milliseconds. */
export function drainDeadline(value: number | undefined, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${where}: drainTimeoutMs must be an integer of 0 or more milliseconds, got ${String(value)}`);
  return value;
}
