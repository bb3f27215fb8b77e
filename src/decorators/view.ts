import { declareComponent } from "./record-metadata";
import type { CommonComponentOptions } from "./component-options";
import type { CacheScope } from "../protocol/wire-types";

/**
 * The origins a view may reach (MCP Apps `_meta.ui.csp`); the host builds the iframe's Content
 * Security Policy from them and allows nothing else. Each entry is an origin: `https://api.example.com`,
 * `wss://live.example.com:8443`, or a wildcard subdomain `https://*.example.com`.
 */
export interface ViewCsp {
  /** fetch, XHR and WebSocket (`connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`); none when absent. */
  frameDomains?: string[];
  /** The document's base URIs (`base-uri`); the view's own origin when absent. */
  baseUriDomains?: string[];
}

/** A browser permission a view asks its host for (`_meta.ui.permissions`); hosts may refuse it. */
export type ViewPermission = "camera" | "microphone" | "geolocation" | "clipboardWrite";

/** Where a view's HTML comes from when no method returns it: the text itself, or a file read once when the app is created. */
export type ViewHtml = string | { file: string };

/** Who may call a tool (MCP Apps `_meta.ui.visibility`): `"model"` (the agent) and/or `"app"` (a view, through its host). */
export type ToolVisibility = "model" | "app";

/** Options of `@View`: the view's uri, its HTML (unless a method returns it), and what hosts read from its `_meta.ui`. */
export interface ViewOptions extends CommonComponentOptions {
  /** The view's resource URI: `ui://` then a host-unique path, e.g. `ui://weather/dashboard`. */
  uri: string;
  /**
   * The HTML document: a string, or `{ file }` read once when the app is created (a relative path
   * is from the working directory). Leave it out on a method: the method returns the HTML.
   */
  html?: ViewHtml;
  /** The origins the view reaches; none when absent (the host's restrictive default). */
  csp?: ViewCsp;
  /** Browser permissions the view asks for. */
  permissions?: ViewPermission[];
  /** A dedicated sandbox origin for the view, in the format its host documents (`{hash}.claudemcpcontent.com`). */
  domain?: string;
  /** Whether the host draws a border and background around the view; hosts differ when absent. */
  prefersBorder?: boolean;
  /** Cache hint for `resources/read` results (milliseconds, >= 0). Default 0. */
  ttlMs?: number;
  /** Cache hint scope for `resources/read` results. Default "private". */
  cacheScope?: CacheScope;
}

/**
 * Declares an MCP Apps view (`io.modelcontextprotocol/ui`): a `ui://` resource of MIME type
 * `text/html;profile=mcp-app` that hosts render in a sandboxed iframe for the tools linked to it
 * (`@Tool({ view })`). On a class, its HTML is the `html` option (or its `handle()` method); on a
 * method, what the method returns. Served by the apps feature: `features: [apps()]`. See docs/apps.md.
 *
 * @example @View({ uri: "ui://weather/dashboard", html: { file: "dist/views/dashboard.html" }, csp: { connectDomains: ["https://api.weather.example"] } })
 */
export function View(options: ViewOptions): ClassDecorator & MethodDecorator {
  return (target: object, propertyKey?: string | symbol) => {
    declareComponent(target, propertyKey, (methodName) => ({ kind: "view", methodName, options }));
  };
}
