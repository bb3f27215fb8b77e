import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import { MODERN_PROTOCOL_VERSION } from "../checks/inbound-checks";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY } from "../request/sdk-module";

/** What a `server/discover` result is made of: what the SDK's `Server` answers it with. */
export interface DiscoverParts {
  readonly serverInfo: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string | undefined;
}

/**
 * The opening `server/discover` of a stdio connection, answered before the SDK is loaded: a host
 * falls back to `initialize` when the answer takes longer than about 0.6 s (issue 24), and
 * loading the SDK takes a good part of that. `take` accepts only a request the SDK's `serveStdio`
 * is known to accept as it is (a strict subset of a valid 2026-07-28 envelope, below), and the
 * answer is the bytes the SDK writes for it (pinned by test/e2e/stdio-startup.e2e.test.ts against
 * the SDK path); anything else returns undefined and takes the SDK path.
 */
export class OpeningDiscover {
  private readonly head: string;

  constructor(capabilities: Record<string, unknown>, parts: DiscoverParts) {
    const result =
      `{"supportedVersions":[${JSON.stringify(MODERN_PROTOCOL_VERSION)}],"capabilities":${JSON.stringify(capabilities)}` +
      (parts.instructions ? `,"instructions":${JSON.stringify(parts.instructions)}` : "") +
      `,"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{${JSON.stringify(SERVER_INFO_META_KEY)}:${JSON.stringify(parts.serverInfo)}}}`;
    this.head = `{"result":${result},"jsonrpc":"2.0","id":`;
  }

  /** The answer's line when this message is a `server/discover` answered here, else undefined. */
  take(message: unknown): string | undefined {
    if (!isPlainObject(message) || message.method !== "server/discover" || message.jsonrpc !== "2.0") return undefined;
    let keys = 0;
    for (const _ in message) keys++;
    const { id, params } = message;
    if (keys !== 4 || (typeof id !== "string" && !Number.isSafeInteger(id)) || !isPlainObject(params)) return undefined;
    for (const key in params) if (key !== "_meta") return undefined;
    if (!isPlainObject(params._meta) || !plainEnvelope(params._meta)) return undefined;
    return `${this.head}${JSON.stringify(id)}}`;
  }
}

/**
 * A `_meta` whose every key and value the SDK's envelope schema is known to accept: the version,
 * client capabilities of the known kinds with the value types the schema gives them, and an
 * optional client info of strings. Anything else (other `_meta` keys, tasks, icons) is the SDK's.
 */
function plainEnvelope(meta: JsonObject): boolean {
  for (const key in meta) {
    const value = meta[key];
    if (key === PROTOCOL_VERSION_META_KEY) {
      if (value !== MODERN_PROTOCOL_VERSION) return false;
    } else if (key === CLIENT_CAPABILITIES_META_KEY) {
      if (!isPlainObject(value) || !plainCapabilities(value)) return false;
    } else if (key === CLIENT_INFO_META_KEY) {
      if (!isPlainObject(value) || !plainClientInfo(value)) return false;
    } else return false;
  }
  return meta[PROTOCOL_VERSION_META_KEY] !== undefined && meta[CLIENT_CAPABILITIES_META_KEY] !== undefined;
}

const CLIENT_INFO_STRINGS = new Set(["name", "version", "title", "description", "websiteUrl"]);

function plainClientInfo(info: JsonObject): boolean {
  for (const key in info) if (!CLIENT_INFO_STRINGS.has(key) || typeof info[key] !== "string") return false;
  return typeof info.name === "string" && typeof info.version === "string";
}

/** Objects whose keys are all in `allowed` (when given), each an object. */
function objectsOf(value: unknown, allowed?: ReadonlySet<string>): boolean {
  if (!isPlainObject(value)) return false;
  for (const key in value) if ((allowed !== undefined && !allowed.has(key)) || !isPlainObject(value[key])) return false;
  return true;
}

const SAMPLING_KEYS = new Set(["context", "tools"]);
const ELICITATION_KEYS = new Set(["form", "url"]);

function plainCapabilities(capabilities: JsonObject): boolean {
  for (const key in capabilities) {
    const value = capabilities[key];
    switch (key) {
      case "roots": {
        if (!isPlainObject(value)) return false;
        for (const k in value) if (k !== "listChanged" || typeof value[k] !== "boolean") return false;
        break;
      }
      case "sampling":
        if (!objectsOf(value, SAMPLING_KEYS)) return false;
        break;
      case "elicitation": {
        if (!objectsOf(value, ELICITATION_KEYS)) return false;
        const form = (value as JsonObject).form as JsonObject | undefined;
        if (form?.applyDefaults !== undefined && typeof form.applyDefaults !== "boolean") return false;
        break;
      }
      case "experimental":
      case "extensions":
        if (!objectsOf(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
