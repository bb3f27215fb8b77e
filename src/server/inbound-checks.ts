import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { FeatureTable } from "../features/feature-table";
import { ErrorCode } from "../protocol/errors";
import { isPlainObject } from "../protocol/plain-object";
import type { JsonObject } from "../protocol/wire-types";

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

/**
 * The checks the framework makes on every inbound request before the SDK sees it, whatever the
 * transport: the HTTP entry (behind `listen()` and `httpHandler()` alike) calls `http`, every
 * connection (stdio, in-memory, `serve(transport)`) calls `connection`. Request limits that must
 * hold on every transport belong here. Checks the SDK makes itself (over HTTP: header
 * cross-checks, then the protocol version) are not repeated, so their order stays the SDK's.
 */
export class InboundChecks {
  constructor(private readonly features: FeatureTable) {}

  /** Over HTTP: headers that mirror params (`Mcp-Param-*` for tools/call, from the feature table). */
  http(message: unknown, headers: Headers): Rejection | undefined {
    if (!isPlainObject(message) || typeof message.method !== "string" || !headers.get("mcp-protocol-version")) return undefined;
    const method = this.features.method(message.method);
    if (!method?.checkHeaders) return undefined;
    const params = isPlainObject(message.params) ? message.params : {};
    const problem = method.checkHeaders(params, (name) => headers.get(name) ?? undefined);
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
}

/** A JSON-RPC request: an object with a string method and an id. */
export function isRequest(message: unknown): message is { id: string | number; method: string; params?: unknown } {
  return isPlainObject(message) && typeof message.method === "string" && message.id !== undefined;
}
