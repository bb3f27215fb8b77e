import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { isJsonContentType, validateHostHeader, validateOriginHeader, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { AuthOptions } from "../auth/bearer-auth";
import type { AppLogger } from "../protocol/app-logger";
import type { Authorization } from "../protocol/authorization";
import { ErrorCode } from "../protocol/errors";
import { ConnectionGate, refusalMessage, RETRY_AFTER_SECONDS } from "./connection-gate";
import { errorResponse } from "./error-response";
import { readBody, refuseBody, send } from "./http-body";
import { InFlightRequests, type Flight } from "./http-drain";
import type { FastLane, PrecomputedOutcome } from "./fast-lane";
import type { InboundChecks } from "./inbound-checks";
import type { HttpAuth } from "./http-auth";
import { VerdictCache } from "./verdict-cache";

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
   * The simple path, for a principal from your own credentials; `auth` makes this an OAuth 2.1
   * resource server instead. Give one or the other.
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
   * Answer well-formed modern requests straight from the dispatcher (the fast lane, same bytes as
   * the SDK path). Default: the app's `fastLane` option, else on unless `ROUNDTRIP_FAST_LANE=off`.
   */
  fastLane?: boolean;
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

const LOCALHOST = ["localhost", "127.0.0.1", "[::1]"];
/** A Host header is a host name or an address, and an optional port: no user info, path or spaces. */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::[0-9]{1,5})?$/;
/** Methods a web Request can carry (fetch forbids CONNECT, TRACE and TRACK); the SDK answers all but POST with 405. */
const WEB_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`listen: ${name} must be a positive integer, got ${String(value)}`);
  return value;
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

/** One request header as the fetch `Headers` of the SDK path would read it (repeated ones joined). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  send(res, status, errorResponse({ code, message }));
}

/**
 * Serves the app's fetch-shaped handler on node:http, with what only a listener can check in front
 * of it: the path, Host and Origin, authentication, the body size (refused before reading when
 * declared), and timeouts and a connection cap against slow or numerous peers. The body is read
 * here and checked by `checks` (limits, then parse) once; the handler gets it parsed.
 */
export async function startHttpListener(
  handler: McpHttpHandler,
  options: ListenOptions,
  checks: InboundChecks,
  logger: AppLogger,
  onerror: (error: Error) => void,
  lane?: FastLane,
  auth?: HttpAuth,
): Promise<HttpListener> {
  if (auth !== undefined && options.authenticate !== undefined) throw new TypeError("listen: give auth or authenticate, not both");
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const allowedHosts = options.allowedHosts ?? LOCALHOST;
  const allowedOrigins = options.allowedOrigins ?? allowedHosts;
  const requestTimeout = positive(options.requestTimeoutMs, 30_000, "requestTimeoutMs");
  const headersTimeout = positive(options.headersTimeoutMs, Math.min(10_000, requestTimeout), "headersTimeoutMs");
  if (headersTimeout > requestTimeout) throw new RangeError("listen: headersTimeoutMs must not exceed requestTimeoutMs");
  const keepAliveTimeout = positive(options.keepAliveTimeoutMs, 5_000, "keepAliveTimeoutMs");
  const maxConnections = positive(options.maxConnections, 1_000, "maxConnections");
  const drainTimeout = drainDeadline(options.drainTimeoutMs, DEFAULT_DRAIN_MS, "listen");
  const maxBody = checks.limits.maxBodyBytes;
  // This server's canonical URI, once the port is known (before that no request is served).
  let resource = "";

  const server: NodeServer = createServer(
    {
      requestTimeout,
      headersTimeout,
      keepAliveTimeout,
      // Node checks the two timeouts on this period; keep it well under the shorter one.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => handle(req, res),
  );
  // Over the cap, and while closing, a new connection is answered 503 instead of reset.
  const gate = new ConnectionGate(server, maxConnections, Math.min(headersTimeout, 2_000));
  const flights = new InFlightRequests();
  // A client that asks before sending its body (Expect: 100-continue) is refused before it sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers["content-length"]) > maxBody)) res.writeContinue();
    handle(req, res);
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if (flights.closing) {
      flights.refused++;
      return refuseBody(
        req,
        res,
        { status: 503, code: -32000, message: refusalMessage("closing") },
        { "retry-after": String(RETRY_AFTER_SECONDS) },
      );
    }
    const flight = flights.track(res);
    serve(req, res, flight).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent && !res.destroyed) jsonError(res, 500, ErrorCode.InternalError, "Internal server error");
      else res.destroy();
    });
  }

  // Verdicts on Host and Origin values, pure functions of the header: computed once per distinct value.
  const hostVerdicts = new VerdictCache((value: string | undefined) => {
    if (value !== undefined && !HOST_SYNTAX.test(value)) return "Invalid Host header";
    const check = validateHostHeader(value, allowedHosts);
    return check.ok ? undefined : check.message;
  });
  const originVerdicts = new VerdictCache((value: string) => {
    const check = validateOriginHeader(value, allowedOrigins);
    return check.ok ? undefined : check.message;
  });

  async function serve(req: IncomingMessage, res: ServerResponse, flight: Flight): Promise<void> {
    // The request target as parsed (the common exact `/mcp` needs no URL object).
    const target = req.url ?? "/";
    const url = target === path ? undefined : new URL(target, "http://localhost");
    const metadata = url !== undefined && auth !== undefined ? auth.metadata(url.pathname, req.method, resource) : undefined;
    if (metadata !== undefined) return send(res, metadata.status, metadata.body, metadata.headers);
    if (url !== undefined && url.pathname !== path) return jsonError(res, 404, ErrorCode.MethodNotFound, "Not found");
    if (!WEB_METHODS.has(req.method ?? ""))
      return send(res, 405, errorResponse({ code: -32000, message: "Method not allowed." }), { allow: "POST" });
    const hostHeader = req.headers.host;
    const hostProblem = hostVerdicts.get(hostHeader);
    if (hostProblem !== undefined) return jsonError(res, 403, -32000, hostProblem);
    if (req.headers.origin !== undefined) {
      const originProblem = originVerdicts.get(req.headers.origin);
      if (originProblem !== undefined) return jsonError(res, 403, -32000, originProblem);
    }
    let principal: string | null = null;
    let authorization: Authorization | undefined;
    if (auth !== undefined) {
      const verdict = await auth.check(req.headersDistinct.authorization, url?.search.slice(1), resource);
      if (verdict.kind === "refused") return send(res, verdict.status, errorResponse(verdict.error), verdict.headers);
      ({ principal, authorization } = verdict);
    } else if (options.authenticate) {
      principal = await options.authenticate(req);
      if (principal === null) {
        res.setHeader("www-authenticate", "Bearer");
        return jsonError(res, 401, -32000, "Unauthorized");
      }
    }
    let bodyText: string | undefined;
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBody);
      if (read.kind === "aborted") return;
      if (read.kind === "too-large") return refuseBody(req, res, checks.tooLarge());
      bodyText = read.text;
      // Remembered as scanned only if it goes on to the SDK path (below), where the entry checks it.
      const checked = bodyText.length > 0 ? checks.text(bodyText, false) : undefined;
      if (checked?.kind === "rejected") return send(res, checked.rejection.status, errorResponse(checked.rejection, checked.id));
      if (checked?.kind === "parsed") body = checked.value;
      const message = body as { id?: unknown; method?: unknown } | undefined;
      flight.id = message?.id;
      flight.listen = message?.method === "subscriptions/listen";
      const refused = authorization && auth?.scopeRefusal(body, authorization, resource);
      if (refused) return send(res, refused.status, errorResponse(refused.error, message?.id), refused.headers);
    }
    // Made when something first reads the signal: "close" also fires after a completed response;
    // only a client that went away (before or after the signal was made) cancels.
    // The drain's deadline ending the request aborts it too.
    let controller: AbortController | undefined;
    const gone = () => flight.stopped || (res.destroyed && !res.writableFinished);
    const signal = (): AbortSignal => {
      if (controller === undefined) {
        const made = (controller = new AbortController());
        if (gone()) made.abort();
        else {
          res.once("close", () => res.writableFinished || made.abort());
          flight.onStop = () => made.abort();
        }
      }
      return controller.signal;
    };
    let precomputed: PrecomputedOutcome | undefined;
    if (lane !== undefined && body !== undefined && isJsonContentType(req.headers["content-type"])) {
      const taken = lane.admit(body, (name) => headerOf(req, name));
      if (taken !== undefined) {
        // The body was parsed here, for this request alone: its params may be frozen in place.
        const answer = await lane.answer(taken, principal, { signal, cancelled: gone }, true, authorization);
        if (answer.kind === "bytes") {
          if (res.destroyed || flight.stopped) return;
          if (answer.kept === undefined) {
            res
              .writeHead(answer.status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(answer.text)) })
              .end(answer.text);
          } else {
            const { head, tail } = answer.kept;
            res.writeHead(answer.status, {
              "content-type": "application/json",
              "content-length": String(head.length + Buffer.byteLength(tail)),
            });
            res.write(head);
            res.end(tail);
          }
          return;
        }
        precomputed = answer.outcome;
      }
    }
    checks.remember(body);
    const headers = new Headers();
    for (const name of Object.keys(req.headers)) {
      const value = headerOf(req, name);
      if (value !== undefined) headers.set(name, value);
    }
    // The path as parsed: an absolute-form request target (POST http://other/mcp) names no other host.
    const request = new Request(`http://${hostHeader ?? "localhost"}${url === undefined ? path : `${url.pathname}${url.search}`}`, {
      method: req.method,
      headers,
      // A body we parsed travels as parsedBody; the SDK then never reads the stream.
      body: body === undefined ? bodyText : undefined,
      signal: signal(),
    });
    const response = await handler.fetch(request, {
      ...(body !== undefined && { parsedBody: body }),
      // The lane already looked at this request (and may have dispatched it): the entry does not again.
      authInfo: {
        token: "",
        clientId: principal ?? "anonymous",
        scopes: [],
        extra: { principal, authorization, laneDone: lane !== undefined, precomputed },
      },
    });
    if (flight.stopped) return void response.body?.cancel().catch(() => undefined);
    const outHeaders = Object.fromEntries(response.headers);
    if (!response.body) return void res.writeHead(response.status, outHeaders).end();
    if (!response.headers.get("content-type")?.includes("text/event-stream")) {
      // A plain JSON answer goes out in one write with its length (no chunked stream).
      const payload = Buffer.from(await response.arrayBuffer());
      if (flight.stopped || res.destroyed) return;
      res.writeHead(response.status, { ...outHeaders, "content-length": String(payload.length) }).end(payload);
      return;
    }
    res.writeHead(response.status, outHeaders);
    res.flushHeaders();
    const stream = Readable.fromWeb(response.body as never);
    stream.on("error", () => res.destroy());
    stream.pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}${path}`;
  resource = auth === undefined ? url : auth.resource(options.auth?.resource ?? url);

  let closing: Promise<void> | undefined;
  async function drain(deadline: number): Promise<void> {
    const started = Date.now();
    gate.close();
    // The SDK handler's close ends its listen streams with their final result.
    const report = await flights.drain(deadline, () => handler.close());
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      gate.destroyAll();
    });
    const counts = { ...report, refusedRequests: flights.refused, refusedConnections: gate.counts.closing };
    // A close that had nothing to drain is a debug line; one that drained something is reported.
    const busy = Object.values(counts).some((count) => count > 0);
    logger[busy ? "info" : "debug"]("HTTP listener closed", { url, ...counts, drainTimeoutMs: deadline, durationMs: Date.now() - started });
  }
  return {
    url,
    port,
    close: (closeOptions: CloseOptions = {}) => {
      try {
        const deadline = drainDeadline(closeOptions.drainTimeoutMs, drainTimeout, "close");
        return (closing ??= drain(deadline));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}
