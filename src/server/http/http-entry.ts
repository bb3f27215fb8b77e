import type { AuthInfo, McpHandlerRequestOptions, McpHttpHandler } from "@modelcontextprotocol/server";
import { sdk as sdkModule } from "../request/sdk-module";
import { signalCancellation } from "../../protocol/cancellation";
import { ErrorCode } from "../../protocol/errors";
import { errorResponse } from "../checks/error-response";
import type { Rejection } from "../checks/inbound-checks";
import type { HttpAnswer, HttpAnswerer, HttpReceived } from "./http-answerer";
import type { HttpAuth } from "./http-auth";
import type { Authorization } from "../../protocol/authorization";

const ANONYMOUS: AuthInfo = { token: "", clientId: "anonymous", scopes: [] };

/**
 * The app's Streamable HTTP handler to mount in any web-standard host (`httpHandler()`): the web
 * `Request` read into what the answerer takes (`http-answerer.ts`: the HTTP checks, the lane, the
 * SDK), and its answer written as a web `Response`. `listen()` reads node:http itself and shares
 * the answerer, so both get the same checks.
 *
 * A JSON body the caller did not parse is read here, within `maxBodyBytes` (a declared
 * Content-Length over it is refused before reading) and checked (limits, then parse); the SDK then
 * receives it as `parsedBody` and never reads the stream. A `parsedBody` the caller parsed is
 * checked by a bounded walk. A body that is not JSON goes to the SDK as text, for its own answer.
 * The principal of a request is `options.authInfo.extra.principal` (null when absent), unless
 * `auth` is given: then the handler is an OAuth 2.1 resource server (the metadata at its
 * well-known path, when the host routes it here; the bearer check; the 403 scope challenge).
 */
export function httpEntry(answerer: HttpAnswerer, auth?: { readonly http: HttpAuth; readonly resource: string }): McpHttpHandler {
  const { sdk, checks } = answerer;
  const fetch = async (request: Request, options: McpHandlerRequestOptions = {}): Promise<Response> => {
    const authInfo = options.authInfo ?? ANONYMOUS;
    const given = authInfo.extra?.principal;
    let principal = typeof given === "string" ? given : null;
    let authorization: Authorization | undefined;
    if (auth !== undefined) {
      const url = new URL(request.url);
      const metadata = auth.http.metadata(url.pathname, request.method, auth.resource);
      if (metadata !== undefined) return Response.json(metadata.body, { status: metadata.status, headers: metadata.headers });
      const header = request.headers.get("authorization");
      const verdict = await auth.http.check(header === null ? undefined : [header], url.search.slice(1), auth.resource);
      if (verdict.kind === "refused")
        return Response.json(errorResponse(verdict.error), { status: verdict.status, headers: verdict.headers });
      ({ principal, authorization } = verdict);
    }
    let body: unknown = options.parsedBody;
    let ownBytes = false;
    let webRequest = request;
    if (
      body === undefined &&
      request.method === "POST" &&
      request.body !== null &&
      sdkModule().isJsonContentType(request.headers.get("content-type"))
    ) {
      let read: Awaited<ReturnType<ReturnType<typeof sdkModule>["readRequestBody"]>>;
      try {
        read = await sdkModule().readRequestBody(request, checks.limits.maxBodyBytes);
      } catch {
        return reply({ code: ErrorCode.ParseError, message: "Parse error: the request body could not be read", status: 400 }, null);
      }
      if (read.tooLarge) return reply(checks.tooLarge(), null);
      const checked = read.text.length > 0 ? checks.text(read.text) : undefined;
      if (checked?.kind === "rejected") return reply(checked.rejection, checked.id);
      if (checked?.kind === "parsed") {
        body = checked.value;
        ownBytes = true;
      } else {
        // Not JSON: the SDK answers it, from the text we read.
        webRequest = withBody(request, read.text);
      }
    }
    const refused = authorization && auth?.http.scopeRefusal(body, authorization, auth.resource);
    if (refused)
      return Response.json(errorResponse(refused.error, (body as { id?: unknown }).id), {
        status: refused.status,
        headers: refused.headers,
      });
    const received: HttpReceived = {
      body,
      method: request.method,
      facts: {
        transport: "http",
        principal,
        ...(authorization !== undefined && { authorization }),
        ...(auth !== undefined && { scopeChallenge: auth.http.scopeChallenge(auth.resource) }),
        ownBytes,
      },
      authInfo,
      header: (name) => request.headers.get(name) ?? undefined,
      cancellation: signalCancellation(request.signal),
      webRequest: () => webRequest,
    };
    return toResponse(await answerer.answer(received));
  };
  return { fetch, close: sdk.close, notify: sdk.notify, bus: sdk.bus };
}

function toResponse(answer: HttpAnswer): Response {
  if (answer.kind === "refused") return reply(answer.rejection, answer.id);
  if (answer.kind === "lane")
    return new Response(answer.bytes.text, {
      status: answer.bytes.status,
      headers: { ...answer.bytes.headers, "content-type": "application/json" },
    });
  return answer.response;
}

function reply(rejection: Rejection, id: unknown): Response {
  return Response.json(errorResponse(rejection, id), {
    status: rejection.status,
    ...(rejection.headers !== undefined && { headers: rejection.headers }),
  });
}

/** The same request with its (already read) body as text. */
function withBody(request: Request, text: string): Request {
  return new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal });
}
