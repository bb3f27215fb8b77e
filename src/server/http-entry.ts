import { DEFAULT_MAX_REQUEST_BODY_SIZE, readRequestBody, type AuthInfo, type McpHandlerRequestOptions, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { InboundChecks } from "./inbound-checks";

const ANONYMOUS: AuthInfo = { token: "", clientId: "anonymous", scopes: [] };

/**
 * The app's Streamable HTTP handler: the SDK's handler with the framework's inbound checks in
 * front, so `listen()` and an `httpHandler()` mounted in any server get the same ones. It also
 * hands the dispatcher each request's params as received (the SDK lifts the retry fields out and
 * drops malformed ones, which must be refused instead).
 *
 * A body the caller did not parse is read from a clone, within the SDK's own size bound; the SDK
 * then receives it as `parsedBody` and never reads the stream.
 */
export function httpEntry(inner: McpHttpHandler, checks: InboundChecks): McpHttpHandler {
  const fetch = async (request: Request, options: McpHandlerRequestOptions = {}): Promise<Response> => {
    const body = options.parsedBody !== undefined ? options.parsedBody : request.method === "POST" ? await peekJson(request) : undefined;
    if (body === undefined) return inner.fetch(request, options);
    const rejection = checks.http(body, request.headers);
    if (rejection) {
      const id = (body as { id?: unknown }).id;
      const known = typeof id === "string" || typeof id === "number";
      const error = { code: rejection.code, message: rejection.message, ...(rejection.data !== undefined && { data: rejection.data }) };
      return Response.json({ jsonrpc: "2.0", ...(known && { id }), error }, { status: rejection.status });
    }
    const rawParams = (body as { params?: unknown } | null)?.params;
    const authInfo = options.authInfo ?? ANONYMOUS;
    return inner.fetch(request, { ...options, parsedBody: body, authInfo: { ...authInfo, extra: { ...authInfo.extra, rawParams } } });
  };
  return { fetch, close: inner.close, notify: inner.notify, bus: inner.bus };
}

/** The request's JSON body, read from a clone; undefined when it is empty, too large or not JSON (the SDK answers those). */
async function peekJson(request: Request): Promise<unknown> {
  if (request.body === null) return undefined;
  const read = await readRequestBody(request.clone(), DEFAULT_MAX_REQUEST_BODY_SIZE);
  if (read.tooLarge || read.text.length === 0) return undefined;
  try {
    return JSON.parse(read.text);
  } catch {
    return undefined;
  }
}
