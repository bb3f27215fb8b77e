import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { validateHostHeader, validateOriginHeader, type McpHttpHandler } from "@modelcontextprotocol/server";
import { ErrorCode } from "../protocol/errors";
import { errorResponse } from "./error-response";
import type { InboundChecks } from "./inbound-checks";

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
  /** Authenticates every request; when set, a request it maps to null gets 401. */
  authenticate?: Authenticator;
}

/** A running HTTP listener. */
export interface HttpListener {
  readonly url: string;
  readonly port: number;
  /** Ends in-flight requests and open streams, and frees the port. */
  close(): Promise<void>;
}

const LOCALHOST = ["localhost", "127.0.0.1", "[::1]"];

/** A JSON-RPC error body; `id` is left out (as the 2026-07-28 schema allows) when the request's id is not known. */
function jsonError(res: ServerResponse, status: number, code: number, message: string, id?: unknown, data?: unknown): void {
  const known = typeof id === "string" || typeof id === "number";
  const body = JSON.stringify({ jsonrpc: "2.0", ...(known && { id }), error: { code, message, ...(data !== undefined && { data }) } });
  res.writeHead(status, { "content-type": "application/json" }).end(body);
}

/**
 * Serves the app's fetch-shaped handler on node:http, with what only a listener can check in front
 * of it: the path, Host and Origin, authentication and the body size.
 */
export async function startHttpListener(
  handler: McpHttpHandler,
  options: ListenOptions,
  checks: InboundChecks,
  onerror: (error: Error) => void,
): Promise<HttpListener> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const allowedHosts = options.allowedHosts ?? LOCALHOST;
  const allowedOrigins = options.allowedOrigins ?? allowedHosts;

  const server: NodeServer = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) jsonError(res, 500, ErrorCode.InternalError, "Internal server error");
      else res.destroy();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path) return jsonError(res, 404, ErrorCode.MethodNotFound, "Not found");
    const hostCheck = validateHostHeader(req.headers.host, allowedHosts);
    if (!hostCheck.ok) return jsonError(res, 403, -32000, hostCheck.message);
    if (req.headers.origin !== undefined) {
      const originCheck = validateOriginHeader(req.headers.origin, allowedOrigins);
      if (!originCheck.ok) return jsonError(res, 403, -32000, originCheck.message);
    }
    let principal: string | null = null;
    if (options.authenticate) {
      principal = await options.authenticate(req);
      if (principal === null) {
        res.setHeader("www-authenticate", "Bearer");
        return jsonError(res, 401, -32000, "Unauthorized");
      }
    }
    let bodyText: string | undefined;
    let body: unknown;
    if (req.method === "POST") {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > checks.limits.maxBodyBytes) {
          const rejection = checks.tooLarge();
          return void res.writeHead(rejection.status, { "content-type": "application/json" }).end(JSON.stringify(errorResponse(rejection)));
        }
        chunks.push(chunk as Buffer);
      }
      bodyText = Buffer.concat(chunks).toString("utf8");
      // The structural limits on the raw text, then one parse.
      const checked = bodyText.length > 0 ? checks.text(bodyText) : undefined;
      if (checked?.kind === "rejected") {
        const { rejection, id } = checked;
        return void res.writeHead(rejection.status, { "content-type": "application/json" }).end(JSON.stringify(errorResponse(rejection, id)));
      }
      if (checked?.kind === "parsed") body = checked.value;
    }
    const controller = new AbortController();
    // "close" also fires after a completed response; only a client that went away cancels.
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? path}`, {
      method: req.method,
      headers,
      // A body we parsed travels as parsedBody; the SDK then never reads the stream.
      body: body === undefined ? bodyText : undefined,
      signal: controller.signal,
    });
    const response = await handler.fetch(request, {
      ...(body !== undefined && { parsedBody: body }),
      authInfo: { token: "", clientId: principal ?? "anonymous", scopes: [], extra: { principal } },
    });
    const outHeaders = Object.fromEntries(response.headers);
    if (!response.body) return void res.writeHead(response.status, outHeaders).end();
    if (!response.headers.get("content-type")?.includes("text/event-stream")) {
      // A plain JSON answer goes out in one write with its length (no chunked stream).
      const payload = Buffer.from(await response.arrayBuffer());
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
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
