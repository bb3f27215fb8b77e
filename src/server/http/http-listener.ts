import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sdk } from "../request/sdk-module";
import type { AppLogger } from "../../protocol/app-logger";
import type { HttpAuth } from "./http-auth";
import { ANONYMOUS_CALLER, nodeCaller, nodeReceived, type NodeBearer } from "./node-request";
import { ErrorCode } from "../../protocol/errors";
import { ConnectionGate, refusalMessage, RETRY_AFTER_SECONDS } from "./connection-gate";
import { errorResponse } from "../checks/error-response";
import { readBody, refuseAfterReading, refuseBody, send } from "./http-body";
import { InFlightRequests, type Flight } from "./http-drain";
import type { HttpAnswerer, HttpReceived } from "./http-answerer";
import { NO_ROUTES, type HttpRoute } from "./http-routes";
import { writeAnswer } from "./http-write";
import { LaneWriteQueue } from "./lane-write-queue";
import { DEFAULT_DRAIN_MS, drainDeadline, type CloseOptions, type HttpListener, type ListenOptions } from "./listen-options";
import { VerdictCache } from "../checks/verdict-cache";

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
  answerer: HttpAnswerer,
  options: ListenOptions,
  logger: AppLogger,
  onerror: (error: Error) => void,
  routes: ReadonlyMap<string, HttpRoute> = NO_ROUTES,
  auth?: HttpAuth,
): Promise<HttpListener> {
  if (auth !== undefined && options.authenticate !== undefined) throw new TypeError("listen: give auth or authenticate, not both");
  // This server's canonical URI, once the port is known (no request is served before).
  let resource = "";
  let bearer: NodeBearer | undefined;
  const { checks } = answerer;
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
  // Over the cap, a new connection's request is answered 503 (once read) instead of reset.
  const gate = new ConnectionGate(server, maxConnections);
  const flights = new InFlightRequests();
  // The lane's answers of one loop turn leave together (see LaneWriteQueue).
  const laneWrites = new LaneWriteQueue();
  // A client that asks before sending its body (Expect: 100-continue) is refused before it sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (!(Number(req.headers["content-length"]) > maxBody)) res.writeContinue();
    handle(req, res);
  });

  const bodyLimit = { max: maxBody, tooLarge: () => checks.tooLarge() };
  function handle(req: IncomingMessage, res: ServerResponse): void {
    // On a connection over the cap: refused once read, never before.
    if (gate.refused(req.socket)) {
      const rejection = { status: 503, code: -32000, message: refusalMessage("over-cap") };
      return void refuseAfterReading(req, res, bodyLimit, rejection, { "retry-after": String(RETRY_AFTER_SECONDS) }).catch(() =>
        res.destroy(),
      );
    }
    // A request already on its way when the drain began is served, and its connection then closes.
    if (flights.closing) {
      flights.late++;
      res.shouldKeepAlive = false;
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
    const check = sdk().validateHostHeader(value, allowedHosts);
    return check.ok ? undefined : check.message;
  });
  const originVerdicts = new VerdictCache((value: string) => {
    const check = sdk().validateOriginHeader(value, allowedOrigins);
    return check.ok ? undefined : check.message;
  });

  /** Serves one request: read it, answer it, write the answer, each a function of one job. */
  async function serve(req: IncomingMessage, res: ServerResponse, flight: Flight): Promise<void> {
    const received = await read(req, res, flight);
    if (received === undefined) return;
    writeAnswer(res, flight, await answerer.answer(received), onerror, laneWrites);
  }

  /**
   * What only a listener checks, then the request as the answerer takes it: the path, the method,
   * Host and Origin, authentication, the body (its size, then limits and parse); undefined once
   * answered (or the client went away).
   */
  async function read(req: IncomingMessage, res: ServerResponse, flight: Flight): Promise<HttpReceived | undefined> {
    // The request target as parsed (the common exact `/mcp` needs no URL object).
    const target = req.url ?? "/";
    const url = target === path ? undefined : new URL(target, "http://localhost");
    const metadata = url !== undefined && auth !== undefined ? auth.metadata(url.pathname, req.method, resource) : undefined;
    if (metadata !== undefined) return void send(res, metadata.status, metadata.body, metadata.headers);
    const route = url !== undefined && url.pathname !== path ? routes.get(url.pathname) : undefined;
    if (url !== undefined && url.pathname !== path && route === undefined)
      return void jsonError(res, 404, ErrorCode.MethodNotFound, "Not found");
    if (!WEB_METHODS.has(req.method ?? ""))
      return void send(res, 405, errorResponse({ code: -32000, message: "Method not allowed." }), { allow: "POST" });
    const hostHeader = req.headers.host;
    const hostProblem = hostVerdicts.get(hostHeader);
    if (hostProblem !== undefined) return void jsonError(res, 403, -32000, hostProblem);
    if (req.headers.origin !== undefined && route?.crossOrigin !== true) {
      const originProblem = originVerdicts.get(req.headers.origin);
      if (originProblem !== undefined) return void jsonError(res, 403, -32000, originProblem);
    }
    if (route !== undefined) return void (await route(req, res));
    // No await when nothing authenticates: the body is read in the tick the request arrives.
    const caller =
      bearer === undefined && options.authenticate === undefined
        ? ANONYMOUS_CALLER
        : await nodeCaller(req, res, url?.search.slice(1), bearer, options.authenticate);
    if (caller === undefined) return undefined;
    let bodyText: string | undefined;
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBody);
      if (read.kind === "aborted") return undefined;
      if (read.kind === "too-large") return void refuseBody(req, res, checks.tooLarge());
      bodyText = read.text;
      const checked = bodyText.length > 0 ? checks.text(bodyText) : undefined;
      if (checked?.kind === "rejected") return void send(res, checked.rejection.status, errorResponse(checked.rejection, checked.id));
      if (checked?.kind === "parsed") body = checked.value;
    }
    return nodeReceived(req, res, flight, {
      caller,
      bearer,
      body,
      bodyText,
      // The body was parsed here, for this request alone: its limits are checked and its params may be frozen in place.
      ownBytes: body !== undefined,
      hostHeader,
      // The path as parsed: an absolute-form request target (POST http://other/mcp) names no other host.
      target: () => (url === undefined ? path : `${url.pathname}${url.search}`),
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}${path}`;
  resource = auth === undefined ? url : auth.resource(options.auth?.resource ?? url);
  bearer = auth && { http: auth, resource };

  let closing: Promise<void> | undefined;
  async function drain(deadline: number): Promise<void> {
    const started = Date.now();
    // No new connection from now on: a balancer's next try is refused at once and goes elsewhere.
    // The connections already waiting to be accepted are taken first (one poll of the event loop),
    // so that closing the listening socket resets none with a request in it. Idle keep-alive
    // connections close; a request already on its way is served, its connection closing after it.
    flights.closing = true;
    await new Promise((resolve) => setImmediate(resolve));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // The SDK handler's close ends its listen streams with their final result; 2025 sessions hand
    // their calls over and end their GET streams.
    const report = await flights.drain(deadline, { handOver: () => answerer.handOver(), endStreams: () => answerer.closeStreams() });
    server.closeAllConnections();
    await closed;
    const counts = { ...report, lateRequests: flights.late };
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
        return Promise.reject(error);
      }
    },
  };
}
