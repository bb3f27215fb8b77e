import type { IncomingMessage, ServerResponse } from "node:http";
import type { Authorization } from "../../protocol/authorization";
import { isPlainObject } from "../../protocol/plain-object";
import { errorResponse } from "../checks/error-response";
import type { HttpReceived } from "./http-answerer";
import type { HttpAuth } from "./http-auth";
import { send } from "./http-body";
import type { Flight } from "./http-drain";
import type { Authenticator } from "./listen-options";
import type { TransportFacts } from "../request/transport-facts";
import { ResponseCancellation } from "./response-cancellation";

// What the listener (listen()) and the Node mount (nodeHandler()) share of reading one node:http
// request: who is calling, and the request as the answerer takes it.

/** One request header as the fetch `Headers` of the SDK path would read it (repeated ones joined). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** An entry's OAuth: the bearer check, for the canonical resource it serves. */
export interface NodeBearer {
  readonly http: HttpAuth;
  readonly resource: string;
}

/** Who is calling, or undefined once the refusal is answered. */
export type NodeCaller = { readonly principal: string | null; readonly authorization: Authorization | undefined };

/** The caller of an entry with neither OAuth nor `authenticate`: one record for every request. */
export const ANONYMOUS_CALLER: NodeCaller = Object.freeze({ principal: null, authorization: undefined });

/**
 * The caller of a request: the bearer token verified (`query` is the request's query string, where
 * a token is refused), else the entry's `authenticate` (null is 401), else anonymous.
 */
export async function nodeCaller(
  req: IncomingMessage,
  res: ServerResponse,
  query: string | undefined,
  bearer: NodeBearer | undefined,
  authenticate: Authenticator | undefined,
): Promise<NodeCaller | undefined> {
  if (bearer !== undefined) {
    const verdict = await bearer.http.check(req.headersDistinct.authorization, query, bearer.resource);
    if (verdict.kind === "refused") return void send(res, verdict.status, errorResponse(verdict.error), verdict.headers);
    return { principal: verdict.principal, authorization: verdict.authorization };
  }
  if (authenticate === undefined) return ANONYMOUS_CALLER;
  const principal = await authenticate(req);
  if (principal !== null) return { principal, authorization: undefined };
  res.setHeader("www-authenticate", "Bearer");
  return void send(res, 401, errorResponse({ code: -32000, message: "Unauthorized" }));
}

/** What an entry read of a request, for `nodeReceived`. */
export interface NodeRead {
  readonly caller: NodeCaller;
  readonly bearer: NodeBearer | undefined;
  /** The parsed JSON-RPC body (undefined when none, or not JSON). */
  readonly body: unknown;
  /** The body's text, when the entry read it (the SDK path gets it when `body` is undefined). */
  readonly bodyText: string | undefined;
  /** Whether `body` was parsed here from the request's own bytes (its params may be frozen in place). */
  readonly ownBytes: boolean;
  readonly hostHeader: string | undefined;
  /** The path and query the web request for the SDK path names. */
  readonly target: () => string;
}

/**
 * The request as the answerer takes it, once its body is read: the flight marked (its id, a
 * stream the drain ends rather than waits for), and a component the token's scopes do not reach
 * answered with the full 403 challenge before dispatch (then undefined).
 */
export function nodeReceived(req: IncomingMessage, res: ServerResponse, flight: Flight, read: NodeRead): HttpReceived | undefined {
  const { body, bodyText, caller, bearer } = read;
  const { principal, authorization } = caller;
  if (req.method === "POST") {
    const message = isPlainObject(body) ? body : undefined;
    flight.id = message?.id;
    flight.listen = message?.method === "subscriptions/listen";
    const refused = authorization && bearer?.http.scopeRefusal(body, authorization, bearer.resource);
    if (refused) return void send(res, refused.status, errorResponse(refused.error, message?.id), refused.headers);
  }
  // A 2025 session's GET stream has no end of its own either: the drain ends it, it does not wait for it.
  if (req.method === "GET") flight.listen = true;
  const cancellation = new ResponseCancellation(res, flight);
  return {
    body,
    method: req.method ?? "",
    facts: factsOf(principal, authorization, bearer, read.ownBytes),
    authInfo: { token: "", clientId: principal ?? "anonymous", scopes: [] },
    header: (name) => headerOf(req, name),
    cancellation,
    webRequest: () => {
      const headers = new Headers();
      for (const name of Object.keys(req.headers)) {
        const value = headerOf(req, name);
        if (value !== undefined) headers.set(name, value);
      }
      return new Request(`http://${read.hostHeader ?? "localhost"}${read.target()}`, {
        method: req.method,
        headers,
        // A body parsed here travels as parsedBody; the SDK then never reads the stream.
        body: body === undefined ? bodyText : undefined,
        signal: cancellation.signal,
      });
    },
  };
}

/**
 * The request's facts as one plain literal per shape, not `{ ..., ...(x && { x }), ownBytes }`: on
 * Node 20 a spread followed by a property kept every request's objects alive through the
 * scavenges (issue 24's RSS). Without a bearer check, there is no authorization and no challenge.
 */
function factsOf(
  principal: string | null,
  authorization: Authorization | undefined,
  bearer: NodeRead["bearer"],
  ownBytes: boolean,
): TransportFacts {
  if (bearer === undefined) {
    return authorization === undefined
      ? { transport: "http", principal, ownBytes }
      : { transport: "http", principal, authorization, ownBytes };
  }
  const scopeChallenge = bearer.http.scopeChallenge(bearer.resource);
  return authorization === undefined
    ? { transport: "http", principal, scopeChallenge, ownBytes }
    : { transport: "http", principal, authorization, scopeChallenge, ownBytes };
}
