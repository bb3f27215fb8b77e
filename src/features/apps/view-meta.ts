import type { ViewCsp, ViewOptions, ViewPermission } from "../../decorators/view";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import { RegistrationError } from "../registration-error";

const CSP_FIELDS: readonly (keyof ViewCsp)[] = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"];
const PERMISSIONS: readonly ViewPermission[] = ["camera", "microphone", "geolocation", "clipboardWrite"];
const SCHEMES = new Set(["https:", "http:", "wss:", "ws:"]);

/**
 * A view's `_meta.ui` (csp, permissions, domain, prefersBorder) from its options, checked once
 * when the app is built: every CSP entry an origin, every permission known. Empty when the view
 * declares none of them.
 */
export function viewUiMeta(options: ViewOptions, where: string): JsonObject {
  const ui: JsonObject = {};
  if (options.csp !== undefined) {
    const csp = checkCsp(options.csp, where);
    if (Object.keys(csp).length > 0) ui.csp = csp;
  }
  if (options.permissions !== undefined) {
    const permissions = options.permissions;
    if (!Array.isArray(permissions)) throw new RegistrationError(`${where}: permissions must be an array of ${PERMISSIONS.join(", ")}`);
    const granted: JsonObject = {};
    for (const name of permissions) {
      if (!PERMISSIONS.includes(name))
        throw new RegistrationError(`${where}: unknown permission ${JSON.stringify(name)}; a view may ask for ${PERMISSIONS.join(", ")}`);
      if (name in granted) throw new RegistrationError(`${where}: permission "${name}" listed twice`);
      granted[name] = {};
    }
    if (permissions.length > 0) ui.permissions = granted;
  }
  if (options.domain !== undefined) {
    if (typeof options.domain !== "string" || options.domain === "" || /\s/.test(options.domain))
      throw new RegistrationError(`${where}: domain must be a non-empty host name in the format your host documents, without spaces`);
    ui.domain = options.domain;
  }
  if (options.prefersBorder !== undefined) {
    if (typeof options.prefersBorder !== "boolean") throw new RegistrationError(`${where}: prefersBorder must be true or false`);
    ui.prefersBorder = options.prefersBorder;
  }
  return ui;
}

function checkCsp(csp: ViewCsp, where: string): JsonObject {
  if (!isPlainObject(csp)) throw new RegistrationError(`${where}: csp must be an object of ${CSP_FIELDS.join(", ")}`);
  const out: JsonObject = {};
  for (const key of Object.keys(csp)) {
    if (!CSP_FIELDS.includes(key as keyof ViewCsp))
      throw new RegistrationError(`${where}: unknown csp field "${key}"; a view's csp has ${CSP_FIELDS.join(", ")}`);
    const entries = csp[key as keyof ViewCsp];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw new RegistrationError(`${where}: csp.${key} must be an array of origins`);
    for (const entry of entries) checkOrigin(entry, `${where}: csp.${key}`);
    if (new Set(entries).size !== entries.length) throw new RegistrationError(`${where}: csp.${key} lists an origin twice`);
    if (entries.length > 0) out[key] = [...entries];
  }
  return out;
}

/**
 * One CSP entry: an origin (`https://api.example.com`, `wss://live.example.com:8443`), or a
 * wildcard subdomain of one (`https://*.example.com`), and nothing else: no path, query,
 * fragment, credentials, CSP keyword or bare host, which a host would read differently or not at all.
 */
function checkOrigin(entry: unknown, where: string): void {
  const fix = 'an origin is a scheme (https, http, wss or ws), a host and an optional port, e.g. "https://api.example.com"';
  if (typeof entry !== "string") throw new RegistrationError(`${where}: ${JSON.stringify(entry)} is not an origin; ${fix}`);
  const wildcard = /^[a-z]+:\/\/\*\./i.test(entry);
  let url: URL;
  try {
    url = new URL(wildcard ? entry.replace("*.", "wildcard.") : entry);
  } catch {
    throw new RegistrationError(`${where}: "${entry}" is not an origin; ${fix}`);
  }
  const reason = !SCHEMES.has(url.protocol)
    ? `its scheme ${url.protocol.slice(0, -1)} is not https, http, wss or ws`
    : url.username !== "" || url.password !== ""
      ? "it carries credentials"
      : url.hostname === ""
        ? "it names no host"
        : url.search !== "" || url.hash !== "" || !/^[a-z]+:\/\/[^/?#]+\/?$/i.test(entry)
          ? "it has a path, query or fragment"
          : undefined;
  if (reason !== undefined) throw new RegistrationError(`${where}: "${entry}" is not an origin (${reason}); ${fix}`);
}
