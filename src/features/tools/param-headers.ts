import type { JsonObject } from "../../protocol/wire-types";
import type { HeaderLookup } from "../feature-module";
import { RegistrationError } from "../registration-error";

/** One inputSchema property mirrored in an `Mcp-Param-<header>` HTTP header. */
export interface HeaderParam {
  readonly property: string;
  readonly header: string;
  readonly type: "string" | "integer" | "boolean";
}

/**
 * The `x-mcp-header` declarations of a tool's inputSchema (SEP-2243), read once at bootstrap.
 * The spec allows them only on a property reached from the root through `properties` keys;
 * anywhere else (inside items, oneOf/anyOf/allOf/not, if/then/else, $defs) is a registration
 * error, since clients drop tools whose annotations are invalid.
 */
export function headerParams(schema: JsonObject, where: string): HeaderParam[] {
  const out: HeaderParam[] = [];
  const props = (schema.properties ?? {}) as Record<string, JsonObject>;
  const misplaced = (node: unknown, path: string): string | undefined => {
    if (node === null || typeof node !== "object") return undefined;
    if (!Array.isArray(node) && "x-mcp-header" in node) return path;
    for (const [key, value] of Object.entries(node)) {
      if (key === "x-mcp-header") continue;
      const found = misplaced(value, `${path}/${key}`);
      if (found) return found;
    }
    return undefined;
  };
  const refuse = (path: string): never => {
    throw new RegistrationError(`${where}: x-mcp-header at ${path} is not allowed (only on a root property reached through properties)`);
  };
  for (const [key, value] of Object.entries(schema)) {
    if (key !== "properties") {
      const found = misplaced(value, `#/${key}`);
      if (found) refuse(found);
      continue;
    }
    // Only the root's own `properties.<name>` may carry it (and is checked below).
    for (const [name, prop] of Object.entries(props)) {
      for (const [inner, sub] of Object.entries(prop ?? {})) {
        const found = inner === "x-mcp-header" ? undefined : misplaced(sub, `#/properties/${name}/${inner}`);
        if (found) refuse(found);
      }
    }
  }
  for (const [property, prop] of Object.entries(props)) {
    const header = prop["x-mcp-header"];
    if (header === undefined) continue;
    if (typeof header !== "string" || header.length === 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
      throw new RegistrationError(`${where}: x-mcp-header on "${property}" must be a non-empty RFC 9110 token`);
    }
    if (out.some((h) => h.header.toLowerCase() === header.toLowerCase())) {
      throw new RegistrationError(`${where}: x-mcp-header "${header}" is declared twice (case-insensitively)`);
    }
    const type = prop.type;
    if (
      type === "integer" &&
      ((typeof prop.minimum === "number" && prop.minimum < -Number.MAX_SAFE_INTEGER) ||
        (typeof prop.maximum === "number" && prop.maximum > Number.MAX_SAFE_INTEGER))
    ) {
      throw new RegistrationError(`${where}: x-mcp-header on "${property}" needs bounds within ±(2^53−1)`);
    }
    if (type !== "string" && type !== "integer" && type !== "boolean") {
      throw new RegistrationError(
        `${where}: x-mcp-header on "${property}" needs type string, integer or boolean (found ${JSON.stringify(type)})`,
      );
    }
    out.push({ property, header, type });
  }
  return out;
}

/**
 * Checks `Mcp-Param-*` headers against the body for a tools/call (SEP-2243, DIGEST §5.3).
 * The SDK applies this only to its own McpServer; the framework routes through a low-level
 * Server, so it checks itself, with the tool's declarations computed once at bootstrap.
 * Returns the rejection message, or undefined when every header matches.
 */
export function checkParamHeaders(
  tool: { readonly headerParams: readonly HeaderParam[] },
  args: unknown,
  header: HeaderLookup,
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

/** `=?base64?...?=` values are decoded (strictly); anything else is literal. */
export function decodeHeaderValue(raw: string): string | undefined {
  if (/[\r\n]/.test(raw)) return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(raw);
  if (!m) return raw;
  const b64 = m[1]!; // group 1 is not optional: set whenever the pattern matched
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return undefined;
  const text = Buffer.from(b64, "base64").toString("utf8");
  // Reject bytes that were not valid UTF-8 (the decoder substitutes U+FFFD).
  if (Buffer.from(text, "utf8").toString("base64") !== b64) return undefined;
  return text;
}

function matches(decoded: string, value: unknown, type: HeaderParam["type"]): boolean {
  if (type === "string") return typeof value === "string" && decoded === value;
  if (type === "boolean") return typeof value === "boolean" && decoded === String(value);
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return false;
  if (!/^-?\d+$/.test(decoded.trim())) return false;
  return Number(decoded) === value;
}
