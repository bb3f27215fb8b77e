import {
  isJsonContentType,
  readRequestBody,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { ErrorCode } from "../protocol/errors";
import { isPlainObject } from "../protocol/plain-object";
import { errorResponse } from "./error-response";
import type { FastLane } from "./fast-lane";
import { echoedId, type InboundChecks, type Rejection } from "./inbound-checks";
import type { LegacySessions } from "./sessions/legacy-sessions";

const ANONYMOUS: AuthInfo = { token: "", clientId: "anonymous", scopes: [] };

/**
 * The app's Streamable HTTP handler: the SDK's handler with the framework's inbound checks in
 * front, so `listen()` and an `httpHandler()` mounted in any server get the same ones: the body
 * size, the structural limits (on the raw text before it is parsed, or by a bounded walk of a
 * `parsedBody` the caller parsed), then the `Mcp-Param-*` headers. It also hands the dispatcher
 * each request's params as received (the SDK lifts the retry fields out and drops malformed ones,
 * which must be refused instead).
 *
 * A JSON body the caller did not parse is read here, within `maxBodyBytes` (a declared
 * Content-Length over it is refused before reading); the SDK then receives it as `parsedBody` and
 * never reads the stream. A body that is not JSON goes to the SDK as text, for its own answer.
 */
export function httpEntry(inner: McpHttpHandler, checks: InboundChecks, lane?: FastLane, sessions?: LegacySessions): McpHttpHandler {
  const fetch = async (request: Request, options: McpHandlerRequestOptions = {}): Promise<Response> => {
    let body: unknown;
    const authInfo = options.authInfo ?? ANONYMOUS;
    const principal = (authInfo.extra as { principal?: string | null } | undefined)?.principal ?? null;
    if (options.parsedBody !== undefined) {
      const rejection = checks.value(options.parsedBody);
      if (rejection) return reply(rejection, echoedId(options.parsedBody));
      body = options.parsedBody;
    } else if (request.method === "POST" && request.body !== null && isJsonContentType(request.headers.get("content-type"))) {
      let read: Awaited<ReturnType<typeof readRequestBody>>;
      try {
        read = await readRequestBody(request, checks.limits.maxBodyBytes);
      } catch {
        return reply({ code: ErrorCode.ParseError, message: "Parse error: the request body could not be read", status: 400 }, null);
      }
      if (read.tooLarge) return reply(checks.tooLarge(), null);
      const checked = read.text.length > 0 ? checks.text(read.text) : undefined;
      if (checked?.kind === "rejected") return reply(checked.rejection, checked.id);
      // Not JSON: the SDK answers it, from the text we read.
      if (checked?.kind !== "parsed") return inner.fetch(withBody(request, read.text), options);
      body = checked.value;
    } else {
      // GET and DELETE of a 2025 session (its stream, its end).
      if (sessions?.claims(request, undefined)) return sessions.fetch(request, undefined, principal, authInfo);
      return inner.fetch(request, options);
    }
    const header = (name: string) => request.headers.get(name) ?? undefined;
    // An object that is not a JSON-RPC message: answered here, as on a connection, so the answer
    // carries its id whenever it can be read (the SDK would write a null id). Arrays stay the
    // SDK's: it serves 2025-era batches over HTTP.
    const rejection = checks.id(body) ?? (isPlainObject(body) ? checks.message(body) : undefined);
    if (rejection) return reply(rejection, echoedId(body));
    // A 2025 client's initialize and everything of its session: the sessionful leg (no Mcp-Param-* in that era).
    if (sessions?.claims(request, body)) return sessions.fetch(request, body, principal, authInfo);
    const headerRejection = checks.http(body, header);
    if (headerRejection) return reply(headerRejection, echoedId(body));
    const rawParams = (body as { params?: unknown } | null)?.params;
    const extra = authInfo.extra as { principal?: string | null; laneDone?: boolean; precomputed?: unknown } | undefined;
    let precomputed = extra?.precomputed;
    if (
      lane !== undefined &&
      extra?.laneDone !== true &&
      request.method === "POST" &&
      isJsonContentType(request.headers.get("content-type"))
    ) {
      const taken = lane.admit(body, header);
      if (taken !== undefined) {
        // A body this entry parsed is this request's alone; one its host handed over may be shared.
        const answer = await lane.answer(taken, extra?.principal ?? null, request.signal, options.parsedBody === undefined);
        if (answer.kind === "bytes")
          return new Response(answer.text, { status: answer.status, headers: { "content-type": "application/json" } });
        precomputed = answer.outcome;
      }
    }
    return inner.fetch(request, {
      ...options,
      parsedBody: body,
      authInfo: { ...authInfo, extra: { ...authInfo.extra, rawParams, precomputed } },
    });
  };
  return { fetch, close: inner.close, notify: inner.notify, bus: inner.bus };
}

function reply(rejection: Rejection, id: unknown): Response {
  return Response.json(errorResponse(rejection, id), { status: rejection.status });
}

/** The same request with its (already read) body as text. */
function withBody(request: Request, text: string): Request {
  return new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal });
}
