import { SHIPPED_NAME_PARAMS } from "../features/name-params";
import type { JsonObject } from "../protocol/wire-types";
import { META, PROTOCOL_VERSION, type JsonRpcNotification, type JsonRpcRequest } from "./wire-messages";

/** A tool argument mirrored into an `Mcp-Param-{header}` header (`x-mcp-header` in its inputSchema). */
export interface ParamHeader {
  property: string;
  header: string;
}

const SENTINEL = /^=\?base64\?.*\?=$/;

/**
 * A header value as the 2026-07-28 HTTP transport encodes it (DIGEST §5.3): plain visible ASCII
 * as is, anything else (non-ASCII, control characters, edge whitespace, sentinel look-alikes) as
 * `=?base64?...?=`.
 */
export function encodeHeaderValue(value: string | number | boolean): string {
  const text = typeof value === "string" ? value : String(value);
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !SENTINEL.test(text);
  return plain ? text : `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;
}

/**
 * The headers a 2026-07-28 client sends with a POST: content type, accept, protocol version (from
 * the body's `_meta`, else the kit's), `Mcp-Method`, `Mcp-Name` for every method whose spec in the
 * shipped features declares a `nameParam` (features/name-params.ts), and the tool's `Mcp-Param-*` headers.
 */
export function mcpRequestHeaders(
  message: JsonRpcRequest | JsonRpcNotification,
  paramHeaders: readonly ParamHeader[] = [],
): Record<string, string> {
  const params = (message.params ?? {}) as JsonObject;
  const meta = params._meta as JsonObject | undefined;
  const version = typeof meta?.[META.protocolVersion] === "string" ? (meta[META.protocolVersion] as string) : PROTOCOL_VERSION;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    "mcp-method": message.method,
  };
  const param = SHIPPED_NAME_PARAMS[message.method];
  const name = param === undefined ? undefined : params[param];
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  const args = params.arguments as JsonObject | undefined;
  if (message.method === "tools/call" && args && typeof args === "object") {
    for (const { property, header } of paramHeaders) {
      const value = args[property];
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(value);
      }
    }
  }
  return headers;
}

/** The `x-mcp-header` annotations of a tool's inputSchema (top-level properties only). */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const properties = (inputSchema as { properties?: Record<string, JsonObject> } | undefined)?.properties;
  if (!properties || typeof properties !== "object") return [];
  return Object.entries(properties).flatMap(([property, schema]) =>
    typeof schema?.["x-mcp-header"] === "string" ? [{ property, header: schema["x-mcp-header"] as string }] : [],
  );
}
