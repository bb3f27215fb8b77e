import { isJsonContentType, type AuthInfo, type McpHttpHandler } from "@modelcontextprotocol/server";
import type { HeaderLookup } from "../../features/feature-module";
import type { Cancellation } from "../../protocol/cancellation";
import { isPlainObject } from "../../protocol/plain-object";
import { echoedId, type InboundChecks, type Rejection } from "../checks/inbound-checks";
import type { FastLane, LaneBytes } from "../lane/fast-lane";
import type { HttpOutcome, HttpStatus } from "../request/http-status";
import { carryFacts, type TransportFacts } from "../request/transport-facts";
import type { LegacySessions } from "./sessions/legacy-sessions";

/** One HTTP request as its reader made it: `listen()`'s listener or a mounted `httpHandler()`. */
export interface HttpReceived {
  /** The JSON-RPC body as parsed; undefined when there is none, or it is not JSON (the SDK answers it). */
  readonly body: unknown;
  /** The HTTP method: the lane takes POSTs only. */
  readonly method: string;
  readonly facts: TransportFacts;
  /** The auth info the SDK's context gets (the facts are added to it). */
  readonly authInfo: AuthInfo;
  /** A request header by its lower-case name, as the SDK path's fetch `Headers` reads it. */
  readonly header: HeaderLookup;
  /** The request's cancellation, for the lane's dispatch (the SDK path uses the web request's signal). */
  readonly cancellation: Cancellation;
  /** The web request for the SDK path, made only when it is needed. */
  webRequest(): Request;
}

/** What the answerer decided, for the reader's writer: a refusal, the lane's bytes, or the SDK's response. */
export type HttpAnswer =
  | { readonly kind: "refused"; readonly rejection: Rejection; readonly id: string | number | null }
  | { readonly kind: "lane"; readonly bytes: LaneBytes }
  | { readonly kind: "sdk"; readonly response: Response };

/**
 * Answers one HTTP request, for the listener and a mounted handler alike: the HTTP list of inbound
 * checks (`InboundChecks.run("http")`), then the fast lane for what it takes, then the SDK's
 * handler with the request's transport facts. Reading the request and writing the answer are the
 * caller's (`http-listener.ts` on node:http, `http-entry.ts` as a web `Response`).
 */
export class HttpAnswerer {
  constructor(
    readonly sdk: McpHttpHandler,
    readonly checks: InboundChecks,
    private readonly lane: FastLane | undefined,
    /** The 2025-11-25 sessions (`McpAppOptions.sessions`): a 2025 `initialize` and what carries its session id. */
    private readonly sessions?: LegacySessions,
  ) {}

  /**
   * What a draining listener ends first: the SDK handler's listen streams (with their final
   * result) and the 2025 sessions' GET streams (notifications only; calls in flight finish).
   */
  async closeStreams(): Promise<void> {
    this.sessions?.endStreams();
    await this.sdk.close();
  }

  async answer(received: HttpReceived): Promise<HttpAnswer> {
    const { body, header } = received;
    let facts = received.facts;
    const rejection = this.checks.run("http", { message: body, facts, header });
    if (rejection !== undefined) return { kind: "refused", rejection, id: echoedId(body) };
    if (this.sessions?.claims(received.method, header, body)) {
      const request = received.webRequest();
      return { kind: "sdk", response: await this.sessions.fetch(request, body, facts.principal, carryFacts(facts, received.authInfo)) };
    }
    if (body !== undefined) {
      const params = isPlainObject(body) && isPlainObject(body.params) ? body.params : undefined;
      // Object.assign, not `{ ...facts, rawParams }`: on Node 20 (V8 11.3) an object spread then given a
      // property kept every request's objects alive through the young generation's collections (all
      // promoted, ~150 bytes a call: the old generation grew until a full collection; issue 24's RSS).
      if (params !== undefined) facts = Object.assign({}, facts, { rawParams: params });
      if (this.lane !== undefined && received.method === "POST" && isJsonContentType(header("content-type"))) {
        const taken = this.lane.admit(body, header);
        if (taken !== undefined) {
          const answer = await this.lane.answer(taken, facts, received.cancellation);
          if (answer.kind === "bytes") return { kind: "lane", bytes: answer };
          facts = Object.assign({}, facts, { settled: answer.settled });
        }
      }
    }
    const outcome: HttpOutcome = {};
    const response = await this.sdk.fetch(received.webRequest(), {
      // A body read here travels as parsedBody; the SDK then never reads the stream.
      ...(body !== undefined && { parsedBody: body }),
      authInfo: carryFacts({ ...facts, http: outcome }, received.authInfo),
    });
    return { kind: "sdk", response: outcome.status === undefined ? response : withStatus(response, outcome.status) };
  }
}

/** The SDK's response with the status (and headers) `httpStatusOf` gave the dispatcher's error. */
function withStatus(response: Response, { status, headers }: HttpStatus): Response {
  const merged = new Headers(response.headers);
  for (const name in headers) merged.set(name, headers[name]!);
  return new Response(response.body, { status, headers: merged });
}
