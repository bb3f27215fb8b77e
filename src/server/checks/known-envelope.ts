import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import { MODERN_PROTOCOL_VERSION } from "./inbound-checks";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from "../request/sdk-module";

/**
 * A `_meta` whose every key and value the SDK's envelope schema is known to accept: the version,
 * client capabilities of the known kinds with the value types the schema gives them, and an
 * optional client info of strings. Anything else (other `_meta` keys, tasks, icons) is the SDK's
 * to judge. A strict subset of what the SDK accepts (pinned by test/e2e/stdio-startup.e2e.test.ts
 * and test/unit/server/lane/fast-lane-envelopes.test.ts against its classifier): the opening
 * `server/discover` and the fast lane take such a request without loading the SDK.
 */
export function knownModernEnvelope(meta: JsonObject): boolean {
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
