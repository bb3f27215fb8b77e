import type { Authorization } from "../../protocol/authorization";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  sdk,
  SERVER_INFO_META_KEY,
} from "../request/sdk-module";
import type { Dispatcher } from "../../dispatch/dispatcher";
import type { FeatureMethod, HeaderLookup } from "../../features/feature-module";
import { isMcpError } from "../../protocol/errors";
import type { Cancellation } from "../../protocol/cancellation";
import type { InboundRequest } from "../../protocol/inbound-request";
import { isPlainObject } from "../../protocol/plain-object";
import type { ClientCapabilities, JsonObject } from "../../protocol/wire-types";
import { dispatchRequest } from "../request/dispatch-request";
import { httpStatusOf } from "../request/http-status";
import type { TransportFacts } from "../request/transport-facts";
import type { InboundChecks } from "../checks/inbound-checks";
import { encodeResult, responseHead, responseTail, responseText, type DirectMethod } from "./lane-encoding";
import { MODERN_PROTOCOL_VERSION } from "../checks/inbound-checks";
import { sameJson } from "./same-json";
import { knownModernEnvelope } from "../checks/known-envelope";
import type { ServerInfo } from "../request/app-info";

/**
 * The environment variable that turns the fast lane's default off for a whole process (`off`, `0`
 * or `false`). It exists for CI's lane-off conformance run (`.ci/run`, `npm run
 * conformance:lane-off`) and the differential run's stdio children, which run the SDK path alone
 * without changing the app; applications use `McpAppOptions.fastLane`.
 */
export const FAST_LANE_ENV = "ROUNDTRIP_FAST_LANE";

/** Whether the lane is on, from the app's option first, then the environment (default on); read once per app. */
export function fastLaneEnabled(option: boolean | undefined, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (option !== undefined) return option;
  const value = env[FAST_LANE_ENV]?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false");
}

/**
 * The dispatcher's view of a lane request: one shape for every request (a class, so property reads
 * stay monomorphic); its cancellation makes a signal only when something reads it. No progress
 * token or log level reaches the lane, so `progress` and `log` are left to the context's defaults.
 */
class LaneInbound implements InboundRequest {
  // `declare`: assigned once in the constructor, with no field definitions before (one shape, no redefinition).
  declare readonly method: string;
  declare readonly params: JsonObject;
  declare readonly clientCapabilities: ClientCapabilities;
  declare readonly protocolVersion: typeof MODERN_PROTOCOL_VERSION;
  declare readonly era: "modern";
  declare readonly inputResponses: unknown;
  declare readonly requestState: unknown;

  declare readonly principal: string | null;
  declare readonly authorization: Authorization | undefined;
  declare readonly exclusive: boolean;
  declare readonly requestId: string | number;
  declare readonly transportKind: "http" | "stdio" | undefined;
  declare readonly cancellation: Cancellation | undefined;

  constructor(request: LaneRequest, facts: TransportFacts, cancellation: Cancellation | undefined) {
    this.method = request.method;
    this.params = request.params;
    this.clientCapabilities = request.capabilities;
    this.protocolVersion = MODERN_PROTOCOL_VERSION;
    this.era = "modern";
    this.inputResponses = request.params.inputResponses;
    this.requestState = request.params.requestState;
    this.principal = facts.principal;
    this.authorization = facts.authorization;
    this.exclusive = facts.ownBytes;
    this.requestId = request.id;
    this.transportKind = facts.transport === "connection" ? undefined : facts.transport;
    this.cancellation = cancellation;
  }
}

/** A request the lane took: everything `answer` needs, checked once. */
export interface LaneRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params: JsonObject;
  readonly capabilities: ClientCapabilities;
  /** The method's spec, which says how the SDK path writes its results. */
  readonly spec: DirectMethod;
}

/**
 * How the lane answered: the bytes of a JSON-RPC response and the HTTP status the SDK would give
 * it, or the outcome (a result, or what the dispatcher threw) for the SDK path to encode, for the
 * rare results whose encoding the lane does not replicate.
 */
export type LaneAnswer = LaneBytes | { readonly kind: "settled"; readonly settled: Promise<JsonObject> };

/** A response the lane encoded itself: the bytes and the HTTP status the SDK path would give it. */
export interface LaneBytes {
  readonly kind: "bytes";
  readonly status: number;
  readonly text: string;
  /**
   * For a result whose encoding the lane keeps (a list page): the same response as `head`
   * (bytes, encoded once) followed by `tail` (the id), so a socket writes it without
   * re-encoding the text.
   */
  readonly kept?: { readonly head: Buffer; readonly tail: string };
  /** Headers beside `content-type` (an error's, from `httpStatusOf`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A response head kept for a result object: its text and its bytes. */
interface KeptEncoding {
  readonly spec: DirectMethod;
  readonly text: string;
  readonly head: Buffer;
}

const TOP_LEVEL_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);
/** `_meta` keys the SDK lifts or acts on (progress, logging, tracing, tasks): such requests take the SDK path. */
const RESERVED_META_PREFIX = "io.modelcontextprotocol/";
const SDK_META_KEYS = new Set(["progressToken", "traceparent", "tracestate", "baggage"]);
/** Longest `_meta` whose verdict is cached; a longer one takes the SDK path. */
const MAX_META_KEY_CHARS = 2048;
const MAX_CACHED_VERDICTS = 512;
/** How many recent envelopes are compared before one is encoded as a cache key. */
const RECENT_ENVELOPES = 4;

export interface FastLaneOptions {
  dispatcher: Dispatcher;
  checks: InboundChecks;
  serverInfo: ServerInfo;
  /** The capabilities advertised to the modern era: a method gated by one not advertised is not served. */
  capabilities: Record<string, unknown>;
}

/**
 * The fast lane: answers well-formed modern (2026-07-28) requests for the methods the dispatcher
 * owns straight from the dispatcher, with the bytes, key orders and HTTP statuses the SDK path
 * gives them (see docs/architecture.md, "The fast lane"). It is a strict subset of the SDK path:
 * `admit` takes a request only when every check the SDK (and the framework's own checks in front
 * of it) would make is known to pass, and returns undefined for everything else, which then takes
 * the SDK path as if the lane did not exist. Verdicts are cheap: plain property checks, and the
 * envelope's verdict (the SDK's own classifier, run once per distinct `_meta`) cached.
 */
export class FastLane {
  private readonly methods = new Map<string, DirectMethod>();
  /** `_meta` JSON → whether the SDK accepts it as a valid 2026-07-28 envelope. */
  private readonly envelopes = new Map<string, boolean>();
  private readonly serverInfoMeta: string;
  /** The last distinct envelopes verdicted (copies), newest first: most requests repeat one of them. */
  private readonly recentEnvelopes: { readonly meta: JsonObject; readonly valid: boolean }[] = [];
  /** Encoded response heads of frozen complete results (list pages), by result object. */
  private readonly encoded = new WeakMap<JsonObject, KeptEncoding>();
  /** How many requests the lane took, and how many of those it left to the SDK path to encode. */
  readonly counts = { taken: 0, settled: 0 };

  constructor(private readonly options: FastLaneOptions) {
    const { dispatcher, capabilities } = options;
    for (const entry of dispatcher.features.methods) {
      if (entry.eras !== undefined && !entry.eras.includes("modern")) continue;
      if (entry.capability !== undefined && !(entry.capability in capabilities)) continue;
      // Only a method whose spec says how the SDK writes it: its params checked by the SDK's own schema,
      // or by its `paramsSchema`, which the bridge registers as the SDK's schema and InboundChecks.params also applies.
      if (!isDirect(entry)) continue;
      this.methods.set(entry.method, entry);
    }
    this.serverInfoMeta = `{${JSON.stringify(SERVER_INFO_META_KEY)}:${JSON.stringify(options.serverInfo)}}`;
  }

  /**
   * The request, checked, when the lane can take it; undefined hands it to the SDK path. `header`
   * reads an HTTP request header (lower-case name); absent on stdio, where there are none. A pure
   * check (a connection asks it to pin its era, too): a request counts as taken once `answer`ed.
   */
  admit(message: unknown, header?: HeaderLookup): LaneRequest | undefined {
    if (!isPlainObject(message)) return undefined;
    for (const key in message) if (!TOP_LEVEL_KEYS.has(key)) return undefined;
    const { id, method, params } = message;
    if (message.jsonrpc !== "2.0" || typeof method !== "string") return undefined;
    if (typeof id !== "string" && !Number.isSafeInteger(id)) return undefined;
    const spec = this.methods.get(method);
    if (spec === undefined || !isPlainObject(params)) return undefined;
    const meta = params._meta;
    if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
    for (const key in meta) {
      if (ENVELOPE_KEYS.has(key)) continue;
      if (SDK_META_KEYS.has(key) || key.startsWith(RESERVED_META_PREFIX)) return undefined;
    }
    if (header !== undefined && !this.headersAgree(method, params, spec, header)) return undefined;
    if (!this.validEnvelope(meta)) return undefined;
    // The retry fields as the SDK's multi-round-trip seam and the dispatcher accept them.
    const { requestState, inputResponses } = params;
    if (requestState !== undefined && typeof requestState !== "string") return undefined;
    if (inputResponses !== undefined && !isPlainObject(inputResponses)) return undefined;
    if (this.options.checks.params(method, params) !== undefined) return undefined;
    return { id: id as string | number, method, params, capabilities: meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities, spec };
  }

  /**
   * Runs the request through the dispatcher and encodes what it settles to, with the request's
   * `cancellation` (its signal made only if a handler reads it). `facts.ownBytes`: the message was parsed
   * for this request alone, so the dispatcher may freeze its params in place (see `InboundRequest`).
   */
  answer(request: LaneRequest, facts: TransportFacts, cancellation: Cancellation): Promise<LaneAnswer> {
    this.counts.taken++;
    const inbound = new LaneInbound(request, facts, cancellation);
    let dispatched: Promise<JsonObject>;
    try {
      dispatched = dispatchRequest(this.options.dispatcher, inbound, facts);
    } catch (error) {
      return Promise.resolve(this.failure(request, error, facts));
    }
    // One `then`, not an async frame: the answer is encoded in the tick the dispatch settles.
    return dispatched.then(
      (result) => this.response(request, result),
      (error: unknown) => this.failure(request, error, facts),
    );
  }

  /** The response of a result the dispatcher settled to: bytes, or left to the SDK path to encode. */
  private response(request: LaneRequest, result: JsonObject): LaneAnswer {
    const kept = this.kept(request.spec, result);
    if (kept !== undefined) {
      const tail = responseTail(request.id);
      return { kind: "bytes", status: 200, text: kept.text + tail, kept: { head: kept.head, tail } };
    }
    const encoded = encodeResult(request.spec, request.capabilities, result, this.serverInfoMeta);
    if (encoded !== undefined) return { kind: "bytes", status: 200, text: responseText(request.id, encoded) };
    this.counts.settled++;
    return { kind: "settled", settled: Promise.resolve(result) };
  }

  /**
   * The kept response head of a frozen complete result (a list page: the same object for every
   * request until the list changes), encoded on its first request; undefined for anything else.
   */
  private kept(spec: DirectMethod, result: JsonObject): KeptEncoding | undefined {
    if (!Object.isFrozen(result) || result.resultType !== "complete") return undefined;
    let kept = this.encoded.get(result);
    if (kept === undefined || kept.spec !== spec) {
      // A complete result's encoding does not depend on the client's capabilities.
      const encoded = encodeResult(spec, {}, result, this.serverInfoMeta);
      if (encoded === undefined) return undefined;
      const text = responseHead(encoded);
      kept = { spec, text, head: Buffer.from(text, "utf8") };
      this.encoded.set(result, kept);
    }
    return kept;
  }

  /** Mcp-Protocol-Version, Mcp-Method and Mcp-Name as the SDK reads them (trimmed), agreeing with the body. */
  private headersAgree(method: string, params: JsonObject, spec: DirectMethod, header: HeaderLookup): boolean {
    if (trimOws(header("mcp-protocol-version")) !== MODERN_PROTOCOL_VERSION) return false;
    if (trimOws(header("mcp-method")) !== method) return false;
    if (spec.nameParam === undefined) return true;
    const value = params[spec.nameParam];
    if (typeof value !== "string") return true;
    const named = trimOws(header("mcp-name"));
    // The Base64 sentinel form (`=?base64?...?=`) is decoded by the SDK path.
    return named === value && !named.startsWith("=?base64?");
  }

  /** The SDK's verdict on this `_meta` as a 2026-07-28 envelope: known, or computed once per distinct `_meta`. */
  private validEnvelope(meta: JsonObject): boolean {
    // The envelopes hosts send (the version, capabilities of the known kinds, client info) are
    // valid without asking the SDK, which a stdio server has not loaded for its first requests.
    if (knownModernEnvelope(meta)) return true;
    // A client sends the same envelope on every request: compared with the last ones seen, not encoded.
    for (const seen of this.recentEnvelopes) if (sameJson(meta, seen.meta)) return seen.valid;
    const key = JSON.stringify(meta);
    if (key.length > MAX_META_KEY_CHARS) return false;
    let valid = this.envelopes.get(key);
    if (valid === undefined) {
      valid = this.verdict(meta);
      if (this.envelopes.size >= MAX_CACHED_VERDICTS) this.envelopes.clear();
      this.envelopes.set(key, valid);
    }
    // A copy: the request's own objects may be changed by whoever holds them after this request.
    this.recentEnvelopes.unshift({ meta: JSON.parse(key) as JsonObject, valid });
    if (this.recentEnvelopes.length > RECENT_ENVELOPES) this.recentEnvelopes.pop();
    return valid;
  }

  /** The SDK's own classifier on a request carrying this `_meta`: is it a valid 2026-07-28 envelope? */
  private verdict(meta: JsonObject): boolean {
    const outcome = sdk().classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: MODERN_PROTOCOL_VERSION,
      mcpMethodHeader: "tools/list",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } },
    } as never) as { kind: string };
    return outcome.kind === "modern";
  }

  /** An error the dispatcher threw, as the SDK writes a handler error (200, or 400 for -32021). */
  private failure(request: LaneRequest, error: unknown, facts: TransportFacts): LaneAnswer {
    if (!isMcpError(error) || !Number.isSafeInteger(error.code) || typeof error.message !== "string") {
      this.counts.settled++;
      return { kind: "settled", settled: Promise.reject(error) };
    }
    const code = error.code === -32002 ? -32602 : error.code;
    const data = error.data === undefined ? "" : `,"data":${JSON.stringify(error.data)}`;
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"error":{"code":${code},"message":${JSON.stringify(error.message)}${data}}}`;
    const { status, headers } = httpStatusOf(code, error.data, facts.scopeChallenge);
    return { kind: "bytes", status, text, ...(headers !== undefined && { headers }) };
  }
}

function trimOws(value: string | undefined): string | undefined {
  if (value === undefined || value.length === 0) return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  // Most headers have no surrounding whitespace: no regex for them.
  if (first !== 0x20 && first !== 0x09 && last !== 0x20 && last !== 0x09) return value;
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

function isDirect(entry: FeatureMethod): entry is FeatureMethod & DirectMethod {
  return entry.direct !== undefined;
}
