import type { ToolDefinition } from "../registry/definitions";
import { ErrorCode } from "../protocol/errors";

/**
 * Checks `Mcp-Param-*` headers against the body for a tools/call (SEP-2243, DIGEST §5.3).
 * The SDK applies this only to its own McpServer; the framework routes through a low-level
 * Server, so it checks here, with the tool's declarations computed once at bootstrap.
 * Returns the rejection message, or undefined when every header matches.
 */
export function checkParamHeaders(
  tool: ToolDefinition,
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  const values = (args && typeof args === "object" ? args : {}) as Record<string, unknown>;
  for (const { property, header: name, type } of tool.headerParams) {
    const raw = header(`mcp-param-${name.toLowerCase()}`);
    const value = values[property];
    if (value === undefined || value === null) {
      if (raw !== undefined) return `Mcp-Param-${name} sent but argument "${property}" is absent`;
      continue;
    }
    if (raw === undefined) return `Mcp-Param-${name} header missing for argument "${property}"`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Mcp-Param-${name} has an invalid Base64 value`;
    if (!matches(decoded, value, type)) return `Mcp-Param-${name} does not match argument "${property}"`;
  }
  return undefined;
}

export const HEADER_MISMATCH = ErrorCode.HeaderMismatch;

/** `=?base64?...?=` values are decoded (strictly); anything else is literal. */
export function decodeHeaderValue(raw: string): string | undefined {
  if (/[\r\n]/.test(raw)) return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(raw);
  if (!m) return raw;
  const b64 = m[1];
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  const text = Buffer.from(b64, "base64").toString("utf8");
  // Reject bytes that were not valid UTF-8 (the decoder substitutes U+FFFD).
  if (Buffer.from(text, "utf8").toString("base64") !== b64) return undefined;
  return text;
}

function matches(decoded: string, value: unknown, type: "string" | "integer" | "boolean"): boolean {
  if (type === "string") return typeof value === "string" && decoded === value;
  if (type === "boolean") return typeof value === "boolean" && decoded === String(value);
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return false;
  if (!/^-?\d+$/.test(decoded.trim())) return false;
  return Number(decoded) === value;
}
