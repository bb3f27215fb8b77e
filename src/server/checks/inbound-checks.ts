import { parseJSONRPCMessage, PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { HeaderLookup } from "../../features/feature-module";
import type { FeatureTable } from "../../features/feature-table";
import { ErrorCode } from "../../protocol/errors";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
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
}

/** Raw request text after the checks: refused (with the id to echo), not JSON (the SDK answers that over HTTP), or parsed. */
export type CheckedText =
  | { readonly kind: "rejected"; readonly rejection: Rejection; readonly id: string | number | null }
  | { readonly kind: "unparsable" }
  | { readonly kind: "parsed"; readonly value: unknown };

/**
 * The checks the framework makes on every inbound request before the SDK sees it, whatever the
 * transport: the HTTP entry (behind `listen()` and `httpHandler()` alike) and every connection
 * (stdio, in-memory, `serve(transport)`). Each is a pure function of the raw text or the parsed
 * message (and headers), so any request path can call it. Checks the SDK makes itself (over
 * HTTP: header cross-checks, then the protocol version) are not repeated, so their order stays
 * the SDK's. `params` runs later, from the SDK bridge, once the SDK has routed the request.
 */
export class InboundChecks {
  /** Messages this instance parsed from text it scanned: their limits are already checked. */
  private readonly scanned = new WeakSet<object>();
  private readonly paramsCheck: ParamsCheck;

  constructor(
    private readonly features: FeatureTable,
    readonly limits: RequestLimits,
  ) {
    this.paramsCheck = new ParamsCheck(features);
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

  /**
   * Raw JSON-RPC text: the structural limits by one scan, then `JSON.parse` (only of text within
   * them). The parsed message is remembered as scanned (so `value` skips it) unless `remember` is
   * false: a caller that may answer it without ever calling `value` (the HTTP listener's fast
   * lane) remembers it itself (`remember`) before handing it on, and spares the weak entry.
   */
  text(text: string, remember = true): CheckedText {
    const breach = scanJsonText(text, this.limits);
    if (breach) return { kind: "rejected", rejection: overLimit(breach), id: requestIdOf(text) };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { kind: "unparsable" };
    }
    if (remember) this.remember(value);
    return { kind: "parsed", value };
  }

  /** Marks a message that `text` parsed as scanned: `value` will not walk it again. */
  remember(message: unknown): void {
    if (typeof message === "object" && message !== null) this.scanned.add(message);
  }

  /** A message that arrived parsed: the structural limits by a bounded walk (skipped for what `text` parsed). */
  value(message: unknown): Rejection | undefined {
    if (typeof message === "object" && message !== null && this.scanned.has(message)) return undefined;
    const breach = scanJsonValue(message, this.limits);
    return breach ? overLimit(breach) : undefined;
  }

  /**
   * On a connection: a value that is not a JSON-RPC message the SDK accepts (it would drop it
   * silently) is -32600, echoing the id of something that looks like a request.
   */
  message(message: unknown): Rejection | undefined {
    try {
      parseJSONRPCMessage(message);
      return undefined;
    } catch {
      const problem = Array.isArray(message) ? "batches are not supported" : "not a valid JSON-RPC 2.0 message";
      return { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${problem}`, status: 400 };
    }
  }

  /**
   * Over HTTP: an id JSON-RPC allows but MCP does not (a number with a fraction) is -32600 without
   * the id; the SDK would answer the same code echoing it, which no MCP client can parse.
   */
  id(message: unknown): Rejection | undefined {
    const id = isPlainObject(message) ? message.id : undefined;
    if (typeof id !== "number" || Number.isInteger(id)) return undefined;
    return { code: ErrorCode.InvalidRequest, message: "Invalid Request: the id must be a string or an integer", status: 400 };
  }

  /**
   * Over HTTP: headers that mirror params (`Mcp-Param-*` for tools/call, from the feature table).
   * `header` reads a request header by its lower-case name.
   */
  http(message: unknown, header: HeaderLookup): Rejection | undefined {
    if (!isPlainObject(message) || typeof message.method !== "string" || !header("mcp-protocol-version")) return undefined;
    const method = this.features.method(message.method);
    if (!method?.checkHeaders) return undefined;
    const params = isPlainObject(message.params) ? message.params : {};
    const problem = method.checkHeaders(params, (name) => header(name.toLowerCase()));
    return problem === undefined ? undefined : { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${problem}`, status: 400 };
  }

  /**
   * On a connection: a request claiming an unknown protocol version gets -32022, as over HTTP.
   * Once a connection is pinned to the modern era, `serveStdio` (SDK 2.4.0) serves later
   * requests without re-checking their version, but each request stands alone (DIGEST §1.1, §1.5).
   */
  connection(message: unknown): Rejection | undefined {
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
