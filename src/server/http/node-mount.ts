import type { IncomingMessage, ServerResponse } from "node:http";
import { sdk } from "../request/sdk-module";
import type { AppLogger } from "../../protocol/app-logger";
import { ErrorCode } from "../../protocol/errors";
import { errorResponse } from "../checks/error-response";
import { VerdictCache } from "../checks/verdict-cache";
import { refusalMessage, RETRY_AFTER_SECONDS } from "./connection-gate";
import type { HttpAnswerer, HttpReceived } from "./http-answerer";
import { readBody, refuseAfterReading, refuseBody, send, type BodyRead } from "./http-body";
import { InFlightRequests, type DrainReport, type Flight } from "./http-drain";
import { writeAnswer } from "./http-write";
import type { AuthOptions } from "../../auth/bearer-auth";
import { nodeCaller, nodeReceived, type NodeBearer } from "./node-request";
import type { Authenticator } from "./listen-options";

/** What a mounted Node handler checks, as `listen()` does (`app.nodeHandler(options)`). */
export interface NodeHandlerOptions {
  /**
   * Host names accepted in the Host header (and Origin, when present). Default: localhost,
   * 127.0.0.1 and [::1], as for `listen()`. Name the hosts your server is reached by.
   */
  allowedHosts?: string[];
  /** Origins' host names accepted; default the same as allowedHosts. */
  allowedOrigins?: string[];
  /**
   * Authenticates every request; when set, a request it maps to null gets 401. What it returns is
   * the principal (`ctx.principal`). Without it every caller is anonymous (null).
   */
  authenticate?: Authenticator;
  /**
   * The handler as an OAuth 2.1 resource server (docs/authorization.md), as `listen({ auth })`:
   * bearer tokens verified, the 401/403/400 challenges, scopes. `auth.resource` is required (the
   * canonical URI clients reach the handler at); route the protected resource metadata's
   * well-known path (`protectedResourceMetadataUrl(resource)`) to this handler too. Not with `authenticate`.
   */
  auth?: AuthOptions;
  /**
   * Time the client has to send the body once the handler gets the request, in milliseconds;
   * then 408 and the connection closes, as under `listen()`. Default 30,000.
   */
  requestTimeoutMs?: number;
  /** The fast lane on this handler; default the app's `fastLane` option. */
  fastLane?: boolean;
}

/**
 * The app as a Node `(req, res, next?)` handler, for Express, Fastify (`request.raw`,
 * `reply.raw`), Hono on Node (`c.env.incoming`, `c.env.outgoing`) and plain `node:http`.
 */
export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
}

const LOCALHOST = ["localhost", "127.0.0.1", "[::1]"];
/** A Host header is a host name or an address, and an optional port: no user info, path or spaces. */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::[0-9]{1,5})?$/;
/** Methods a web Request can carry (fetch forbids CONNECT, TRACE and TRACK); the SDK answers all but POST with 405. */
const WEB_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The answer when a framework read the body and kept nothing of it for us. */
const BODY_ALREADY_READ =
  "The request body was already read by a body parser in front of the MCP handler (app.nodeHandler()), which kept no copy of it: " +
  "mount the handler before any body parser (or on a route without one), or leave the parsed JSON-RPC message in req.body " +
  "(express.json() does), or the raw body as a string or Buffer";

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`nodeHandler: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/**
 * What a host framework left of the body: the stream still unread (we read it), a copy it kept
 * (`req.body`: the parsed message, or the raw text as a string or Buffer), or nothing.
 */
type HostBody = { kind: "stream" } | { kind: "parsed"; value: unknown } | { kind: "text"; text: string } | { kind: "lost" };

function hostBody(req: IncomingMessage): HostBody {
  if (!req.readableDidRead && !req.readableEnded) return { kind: "stream" };
  const kept = (req as { body?: unknown }).body;
  if (typeof kept === "string") return { kind: "text", text: kept };
  if (Buffer.isBuffer(kept)) return { kind: "text", text: kept.toString("utf8") };
  // express.json() on an empty body keeps {}; a parser that kept nothing leaves undefined.
  return kept === undefined ? { kind: "lost" } : { kind: "parsed", value: kept };
}

/**
 * The request path of `listen()` for one request a host server already accepted and routed:
 * Host and Origin, authentication, the body (read within `maxBodyBytes` and `requestTimeoutMs`,
 * or the copy a body parser kept), the inbound checks, the fast lane, then the SDK handler. What
 * stays the host's: its port, paths, headers and keep-alive timeouts and connection cap.
 */
export class NodeMount {
  private readonly flights = new InFlightRequests();
  private readonly allowedHosts: string[];
  private readonly hostVerdicts: VerdictCache<string | undefined>;
  private readonly originVerdicts: VerdictCache<string>;
  private readonly requestTimeout: number;
  private warnedLostBody = false;

  constructor(
    private readonly answerer: HttpAnswerer,
    private readonly options: NodeHandlerOptions,
    private readonly logger: AppLogger,
    private readonly onerror: (error: Error) => void,
    private readonly auth?: NodeBearer,
  ) {
    this.allowedHosts = options.allowedHosts ?? LOCALHOST;
    const allowedOrigins = options.allowedOrigins ?? this.allowedHosts;
    this.requestTimeout = positive(options.requestTimeoutMs, 30_000, "requestTimeoutMs");
    this.hostVerdicts = new VerdictCache((value: string | undefined) => {
      if (value !== undefined && !HOST_SYNTAX.test(value)) return "Invalid Host header";
      const check = sdk().validateHostHeader(value, this.allowedHosts);
      return check.ok ? undefined : check.message;
    });
    this.originVerdicts = new VerdictCache((value: string) => {
      const check = sdk().validateOriginHeader(value, allowedOrigins);
      return check.ok ? undefined : check.message;
    });
  }

  /** The Node handler: errors are answered 500 here (and reported), never passed on. */
  readonly handle: NodeHandler = (req, res) => {
    if (this.flights.closing) {
      this.flights.refused++;
      const limit = { max: this.answerer.checks.limits.maxBodyBytes, tooLarge: () => this.answerer.checks.tooLarge() };
      const rejection = { status: 503, code: -32000, message: refusalMessage("closing") };
      // Once the request is read (or a parser before the handler read it), never before.
      return void refuseAfterReading(req, res, limit, rejection, { "retry-after": String(RETRY_AFTER_SECONDS) }).catch(() => res.destroy());
    }
    const flight = this.flights.track(res);
    this.serve(req, res, flight).catch((error: unknown) => {
      this.onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent && !res.destroyed)
        send(res, 500, errorResponse({ code: ErrorCode.InternalError, message: "Internal server error" }));
      else res.destroy();
    });
  };

  /** A graceful close, as a listener's: new requests 503, those in flight finish until the deadline. */
  async drain(deadlineMs: number): Promise<DrainReport> {
    const started = Date.now();
    const report = await this.flights.drain(deadlineMs, {
      handOver: () => this.answerer.handOver(),
      endStreams: () => this.answerer.closeStreams(),
    });
    const counts = { ...report, refusedRequests: this.flights.refused };
    // As a listener's close: a line at info when it drained anything, at debug otherwise.
    const busy = Object.values(counts).some((count) => count > 0);
    this.logger[busy ? "info" : "debug"]("mounted handler closed", {
      ...counts,
      drainTimeoutMs: deadlineMs,
      durationMs: Date.now() - started,
    });
    return report;
  }

  /** Serves one request as the listener does: read it, answer it (the shared answerer), write the answer. */
  private async serve(req: IncomingMessage, res: ServerResponse, flight: Flight): Promise<void> {
    const received = await this.read(req, res, flight);
    if (received === undefined) return;
    writeAnswer(res, flight, await this.answerer.answer(received), this.onerror);
  }

  /**
   * What the listener checks before the answerer, but the path (the host routed it): the method,
   * Host and Origin, authentication, the body (its size, then limits and parse, or the copy a
   * parser kept); undefined once answered (or the client went away).
   */
  private async read(req: IncomingMessage, res: ServerResponse, flight: Flight): Promise<HttpReceived | undefined> {
    const checks = this.answerer.checks;
    if (!WEB_METHODS.has(req.method ?? ""))
      return void send(res, 405, errorResponse({ code: -32000, message: "Method not allowed." }), { allow: "POST" });
    const hostHeader = req.headers.host;
    const hostProblem = this.hostVerdicts.get(hostHeader);
    if (hostProblem !== undefined) return void send(res, 403, errorResponse({ code: -32000, message: hostProblem }));
    if (req.headers.origin !== undefined) {
      const originProblem = this.originVerdicts.get(req.headers.origin);
      if (originProblem !== undefined) return void send(res, 403, errorResponse({ code: -32000, message: originProblem }));
    }
    const bearer = this.auth;
    let query: string | undefined;
    if (bearer !== undefined) {
      const url = new URL(req.url ?? "/", "http://localhost");
      const metadata = bearer.http.metadata(url.pathname, req.method, bearer.resource);
      if (metadata !== undefined) return void send(res, metadata.status, metadata.body, metadata.headers);
      query = url.search.slice(1);
    }
    const caller = await nodeCaller(req, res, query, bearer, this.options.authenticate);
    if (caller === undefined) return undefined;
    let bodyText: string | undefined;
    let body: unknown;
    let ownBytes = false;
    if (req.method === "POST") {
      const kept = hostBody(req);
      if (kept.kind === "lost") {
        if (!this.warnedLostBody) {
          this.warnedLostBody = true;
          this.logger.error(BODY_ALREADY_READ);
        }
        return void send(res, 500, errorResponse({ code: ErrorCode.InternalError, message: BODY_ALREADY_READ }));
      }
      if (kept.kind === "parsed") {
        // Someone else's objects: the answerer walks them for the limits, and nothing freezes them.
        body = kept.value;
      } else {
        let read: BodyRead;
        if (kept.kind === "text") {
          read = Buffer.byteLength(kept.text) > checks.limits.maxBodyBytes ? { kind: "too-large" } : { kind: "body", text: kept.text };
        } else {
          read = await this.timedRead(req, res);
          if (read.kind === "aborted") return undefined;
        }
        if (read.kind === "too-large") return void refuseBody(req, res, checks.tooLarge());
        bodyText = read.text;
        const checked = bodyText.length > 0 ? checks.text(bodyText) : undefined;
        if (checked?.kind === "rejected") return void send(res, checked.rejection.status, errorResponse(checked.rejection, checked.id));
        if (checked?.kind === "parsed") {
          body = checked.value;
          ownBytes = true;
        }
      }
    }
    return nodeReceived(req, res, flight, {
      caller,
      bearer,
      body,
      bodyText,
      ownBytes,
      hostHeader,
      target: () => {
        const url = new URL(req.url ?? "/", "http://localhost");
        return `${url.pathname}${url.search}`;
      },
    });
  }

  /** Reads the body within `requestTimeoutMs`: a stalled one is answered 408 and its connection closed, as Node's own timeout does under `listen()`. */
  private async timedRead(req: IncomingMessage, res: ServerResponse): Promise<BodyRead> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<BodyRead>((resolve) => {
      timer = setTimeout(() => {
        if (!res.headersSent) res.writeHead(408, { connection: "close" }).end();
        res.once("finish", () => req.socket.destroy());
        resolve({ kind: "aborted" });
      }, this.requestTimeout);
    });
    try {
      return await Promise.race([readBody(req, this.answerer.checks.limits.maxBodyBytes), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
