import type { HeaderLookup } from "../../features/feature-module";
import type { FeatureTable } from "../../features/feature-table";
import { ErrorCode } from "../../protocol/errors";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import type { TransportFacts } from "../request/transport-facts";
import { PROTOCOL_VERSION_META_KEY, RELATED_TASK_META_KEY, sdk, SUPPORTED_PROTOCOL_VERSIONS } from "../request/sdk-module";
import { ParamsCheck } from "./params-check";
import { describeBreach, requestIdOf, scanJsonText, scanJsonValue, type LimitBreach, type RequestLimits } from "./request-limits";

/** The revision this framework serves per request (the SDK's exported LATEST is its 2025 default). */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
const KNOWN_VERSIONS = new Set<string>([MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS]);

/** Why a request is refused before the SDK sees it: the JSON-RPC error and, over HTTP, the status. */
export interface Rejection {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
  readonly status: number;
  /** HTTP headers of the refusal (a `WWW-Authenticate` challenge, a `Retry-After`); ignored on a stream. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Raw request text after the checks: refused (with the id to echo), not JSON (the SDK answers that over HTTP), or parsed. */
export type CheckedText =
  | { readonly kind: "rejected"; readonly rejection: Rejection; readonly id: string | number | null }
  | { readonly kind: "unparsable" }
  | { readonly kind: "parsed"; readonly value: unknown };

/** The transport kinds that share one list of checks: HTTP (`listen()`, `httpHandler()`) and a stream of messages (stdio, in-memory, `serve`). */
export type CheckedTransport = "http" | "stream";

/** One request as a list of checks sees it. */
export interface CheckedMessage {
  /** The parsed message; over HTTP undefined when the request has no JSON body (a GET, a body that is not JSON). */
  readonly message: unknown;
  /** What the transport knows of the request (`facts.ownBytes`: the limits were checked on its text). */
  readonly facts: TransportFacts;
  /** A request header by its lower-case name (HTTP only). */
  readonly header?: HeaderLookup;
}

/** One inbound check: the refusal, or undefined to go on to the next. */
type InboundCheck = (this: InboundChecks, request: CheckedMessage) => Rejection | undefined;

/**
 * The checks the framework makes on every inbound message before the lane or the SDK sees it, in
 * one ordered list per transport kind, run by each transport in one call (`run`). Checks the SDK
 * makes itself (over HTTP: header cross-checks, then the protocol version) are not repeated, so
 * their order stays the SDK's. Reading the message (`tooLarge`, `text`) comes before, in each
 * transport's reader; `params` runs later, from the lane and the SDK bridge, once the method is known.
 */
const CHECKS: Readonly<Record<CheckedTransport, readonly InboundCheck[]>> = {
  http: [
    limits,
    // Before the SDK, which would echo a fractional id no MCP client can parse.
    mcpId,
    // An object that is not a JSON-RPC message is answered with its id (the SDK would write a null
    // one); arrays stay the SDK's: it serves 2025-era batches over HTTP.
    function (request) {
      return isPlainObject(request.message) ? jsonRpcMessage.call(this, request) : undefined;
    },
    paramHeaders,
  ],
  // The SDK's connection entry would drop an invalid message silently and leave the client waiting.
  stream: [limits, jsonRpcMessage, protocolVersion],
};

/** The checks of every inbound message (see `CHECKS`), with what they need from the app. */
export class InboundChecks {
  private readonly paramsCheck: ParamsCheck;

  constructor(
    readonly features: FeatureTable,
    readonly limits: RequestLimits,
  ) {
    this.paramsCheck = new ParamsCheck(features);
  }

  /** Runs the list of checks of this transport kind, in order: the first refusal, or undefined. */
  run(transport: CheckedTransport, request: CheckedMessage): Rejection | undefined {
    for (const check of CHECKS[transport]) {
      const rejection = check.call(this, request);
      if (rejection !== undefined) return rejection;
    }
    return undefined;
  }

  /** A body (or stdio line) whose byte size is over `maxBodyBytes`: HTTP 413. */
  tooLarge(): Rejection {
    const max = this.limits.maxBodyBytes;
    return {
      code: ErrorCode.InvalidRequest,
      message: `Request too large: the body exceeds ${max} bytes (limit maxBodyBytes)`,
      data: { limit: "maxBodyBytes", maximum: max },
      status: 413,
    };
  }

  /** Raw JSON-RPC text: the structural limits by one scan, then `JSON.parse` (only of text within them). */
  text(text: string): CheckedText {
    const breach = scanJsonText(text, this.limits);
    if (breach) return { kind: "rejected", rejection: overLimit(breach), id: requestIdOf(text) };
    try {
      return { kind: "parsed", value: JSON.parse(text) };
    } catch {
      return { kind: "unparsable" };
    }
  }

  /**
   * The params of a routed request against its method's wire shape (the feature table's
   * `paramsShape`): -32602 with a one-line message. Run by the SDK bridge before the SDK's own
   * params validation, which would answer -32603 with a validator dump for most methods.
   */
  params(method: string, params: unknown): Rejection | undefined {
    const problem = this.paramsCheck.problem(method, params ?? {});
    return problem === undefined
      ? undefined
      : { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}: ${problem}`, status: 400 };
  }
}

/** A message that arrived parsed: the structural limits by a bounded walk (not again for one parsed from scanned text). */
function limits(this: InboundChecks, { message, facts }: CheckedMessage): Rejection | undefined {
  if (facts.ownBytes || message === undefined) return undefined;
  const breach = scanJsonValue(message, this.limits);
  return breach ? overLimit(breach) : undefined;
}

/** A value that is not a JSON-RPC message the SDK accepts is -32600. */
function jsonRpcMessage({ message }: CheckedMessage): Rejection | undefined {
  // The common request is told valid by a few property reads; the SDK's schema walk is for the rest.
  if (isPlainRequest(message)) return undefined;
  try {
    sdk().parseJSONRPCMessage(message);
    return undefined;
  } catch {
    const problem = Array.isArray(message) ? "batches are not supported" : "not a valid JSON-RPC 2.0 message";
    return { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${problem}`, status: 400 };
  }
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A request the SDK's `JSONRPCRequestSchema` (a strict object: `jsonrpc` "2.0", a string or
 * integer id, a string method, params an object whose `_meta` is an object) is known to accept,
 * told by property reads alone. False says nothing: the SDK's own parse then decides. `_meta`
 * keys the schema types (progressToken, related-task) are left to it.
 */
export function isPlainRequest(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  for (const key in message) if (!REQUEST_KEYS.has(key)) return false;
  const { id, params } = message;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") return false;
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  return isPlainObject(meta) && meta.progressToken === undefined && meta[RELATED_TASK_META_KEY] === undefined;
}

/** An id JSON-RPC allows but MCP does not (a number with a fraction) is -32600 without the id. */
function mcpId({ message }: CheckedMessage): Rejection | undefined {
  const id = isPlainObject(message) ? message.id : undefined;
  if (typeof id !== "number" || Number.isInteger(id)) return undefined;
  return { code: ErrorCode.InvalidRequest, message: "Invalid Request: the id must be a string or an integer", status: 400 };
}

/** Headers that mirror params (`Mcp-Param-*` for tools/call, from the feature table). */
function paramHeaders(this: InboundChecks, { message, header }: CheckedMessage): Rejection | undefined {
  if (header === undefined || !isPlainObject(message) || typeof message.method !== "string" || !header("mcp-protocol-version"))
    return undefined;
  const method = this.features.method(message.method);
  if (!method?.checkHeaders) return undefined;
  const params = isPlainObject(message.params) ? message.params : {};
  const problem = method.checkHeaders(params, (name) => header(name.toLowerCase()));
  return problem === undefined ? undefined : { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${problem}`, status: 400 };
}

/**
 * A request claiming an unknown protocol version gets -32022, as over HTTP. Once a connection is
 * pinned to the modern era, `serveStdio` (SDK 2.4.0) serves later requests without re-checking
 * their version, but each request stands alone (DIGEST §1.1, §1.5).
 */
function protocolVersion({ message }: CheckedMessage): Rejection | undefined {
  if (!isRequest(message) || !isPlainObject(message.params)) return undefined;
  const claimed = (message.params._meta as JsonObject | undefined)?.[PROTOCOL_VERSION_META_KEY];
  if (typeof claimed !== "string" || KNOWN_VERSIONS.has(claimed)) return undefined;
  return {
    code: ErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version: ${claimed}`,
    data: { supported: [MODERN_PROTOCOL_VERSION], requested: claimed },
    status: 400,
  };
}

function overLimit(breach: LimitBreach): Rejection {
  return {
    code: ErrorCode.InvalidParams,
    message: describeBreach(breach),
    data: { limit: breach.limit, maximum: breach.maximum },
    status: 400,
  };
}

/**
 * The id an error about this message echoes: its id whenever it can be read (an object whose id is
 * one MCP allows, a string or an integer, whatever else is wrong with it), else null (left out of
 * the answer: MCP forbids a null id).
 */
export function echoedId(message: unknown): string | number | null {
  if (!isPlainObject(message)) return null;
  const id = message.id;
  return typeof id === "string" || Number.isInteger(id) ? (id as string | number) : null;
}

/** A JSON-RPC request: an object with a string method and an id. */
export function isRequest(message: unknown): message is { id: string | number; method: string; params?: unknown } {
  return isPlainObject(message) && typeof message.method === "string" && message.id !== undefined;
}
