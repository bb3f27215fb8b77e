import type { Authorization } from "../../protocol/authorization";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { JsonObject } from "../../protocol/wire-types";
import type { HttpOutcome, ScopeChallenge } from "./http-status";

/** Which transport received a request: `listen()` or a mounted `httpHandler()`, a stdio line, any other connection. */
export type TransportKind = "http" | "stdio" | "connection";

/**
 * What the transport that received one request knows of it and the SDK's context does not carry,
 * in one typed record: made once by the transport, read by the checks, the lane and the SDK bridge.
 * A new fact (a session id, verified token claims) is a field here, set where the transport makes
 * the record (`http/http-answerer.ts`, `stdio/connection-transport.ts`).
 */
export interface TransportFacts {
  readonly transport: TransportKind;
  /** Who sent it (the listener's `authenticate`, a mounted handler's `authInfo.extra.principal`, `serve({ principal })`). */
  readonly principal: string | null;
  /** What the request's verified bearer token granted (`listen({ auth })`), or a connection was given (`serve({ authorization })`). */
  readonly authorization?: Authorization;
  /**
   * The message was parsed here from the request's own bytes: its limits were checked on the text,
   * and nobody else holds its objects, so the dispatcher may freeze them in place.
   */
  readonly ownBytes: boolean;
  /** Params as received: the SDK lifts the retry fields out and drops malformed ones, which must be refused instead. */
  readonly rawParams?: JsonObject;
  /**
   * What the lane already dispatched this request to (a result, or what the dispatcher threw), for
   * the SDK path to encode: the lane does not encode every result, and nothing is dispatched twice.
   */
  readonly settled?: Promise<JsonObject>;
  /** HTTP, SDK path: where the SDK bridge notes the status a dispatcher error asks for (`http-status.ts`). */
  readonly http?: HttpOutcome;
  /**
   * HTTP with OAuth (`auth`): the entry's 403 insufficient_scope challenge for these scopes, with
   * its `resource_metadata`, for a refusal the dispatcher makes (a task method, a completion).
   */
  readonly scopeChallenge?: ScopeChallenge;
}

/** The `authInfo.extra` key the facts travel under through the SDK's HTTP handler. */
const CARRIED_KEY = "io.github.roundtrip-mcp/transport-facts";
/** Facts records handed to the SDK: only these are read back, so nothing a caller put in `extra` passes for one. */
const carried = new WeakSet<object>();

/**
 * `base` with the facts added, for the SDK's HTTP handler to carry to the request's context
 * (`factsOf`). `extra.principal` is kept as it was documented for a mounted handler's callers.
 */
export function carryFacts(facts: TransportFacts, base: AuthInfo): AuthInfo {
  carried.add(facts);
  return { ...base, extra: { ...base.extra, principal: facts.principal, [CARRIED_KEY]: facts } };
}

/** The facts `carryFacts` put in this request's auth info, if any. */
export function carriedFacts(authInfo: AuthInfo | undefined): TransportFacts | undefined {
  const value = authInfo?.extra?.[CARRIED_KEY];
  return isCarried(value) ? value : undefined;
}

function isCarried(value: unknown): value is TransportFacts {
  return typeof value === "object" && value !== null && carried.has(value);
}
