import type { AuthInfo, McpHttpHandler } from "@modelcontextprotocol/server";
import { sdk } from "../request/sdk-module";
import type { HeaderLookup } from "../../features/feature-module";
import type { Cancellation } from "../../protocol/cancellation";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
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
   * At a draining listener's deadline, first: the 2025 sessions' calls still running here are
   * handed over (their streams end, and the clients resume them on another instance).
   */
  async handOver(): Promise<number> {
    return (await this.sessions?.handOver()) ?? 0;
  }

  /** What a draining listener ends last: the SDK handler's listen streams (with their final result) and the 2025 sessions' streams. */
  async closeStreams(): Promise<void> {
    await this.sessions?.endStreams();
    await this.sdk.close();
  }

  /**
   * The answer of one request. Not an async function: a request the lane takes settles when its
   * dispatch does, through one `then` (no async frame, no await of what is already known).
   */
  answer(received: HttpReceived): Promise<HttpAnswer> {
    const { body, header } = received;
    const rejection = this.checks.run("http", { message: body, facts: received.facts, header });
    if (rejection !== undefined) return Promise.resolve({ kind: "refused", rejection, id: echoedId(body) });
    if (this.sessions?.claims(received.method, header, body)) return this.session(received);
    if (body !== undefined && this.lane !== undefined && received.method === "POST" && sdk().isJsonContentType(header("content-type"))) {
      const taken = this.lane.admit(body, header);
      if (taken !== undefined)
        return this.lane
          .answer(taken, received.facts, received.cancellation)
          .then((answer) => (answer.kind === "bytes" ? { kind: "lane", bytes: answer } : this.viaSdk(received, answer.settled)));
    }
    return this.viaSdk(received, undefined);
  }

  private async session(received: HttpReceived): Promise<HttpAnswer> {
    const { facts } = received;
    const request = received.webRequest();
    return {
      kind: "sdk",
      response: await this.sessions!.fetch(request, received.body, facts.principal, carryFacts(facts, received.authInfo)),
    };
  }

  /** The SDK's handler, with the request's facts: its raw params, and what the lane already settled (if it took it). */
  private async viaSdk(received: HttpReceived, settled: Promise<JsonObject> | undefined): Promise<HttpAnswer> {
    const { body } = received;
    const params = isPlainObject(body) && isPlainObject(body.params) ? body.params : undefined;
    const outcome: HttpOutcome = {};
    // Object.assign, not a spread then properties: on Node 20 (V8 11.3) an object spread then given
    // a property kept every request's objects alive through the young generation's collections.
    const facts: TransportFacts = Object.assign(
      {},
      received.facts,
      params !== undefined ? { rawParams: params } : undefined,
      settled !== undefined ? { settled } : undefined,
      { http: outcome },
    );
    const response = await this.sdk.fetch(received.webRequest(), {
      // A body read here travels as parsedBody; the SDK then never reads the stream.
      ...(body !== undefined && { parsedBody: body }),
      authInfo: carryFacts(facts, received.authInfo),
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
