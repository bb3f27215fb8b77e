import { clientExtension } from "../../protocol/client-extension";
import type { ClientCapabilities } from "../../protocol/wire-types";

/** The MCP Apps extension's identifier (SEP-1865): the key in `capabilities.extensions`, both ways. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The MIME type of an MCP Apps view: an HTML5 document rendered in a sandboxed iframe. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** The older, flat tool `_meta` key naming a tool's view, which hosts still read beside `_meta.ui.resourceUri`. */
export const LEGACY_RESOURCE_URI_META = "ui/resourceUri";

/**
 * True when the caller of this request renders MCP Apps views: it declared the extension with
 * `mimeTypes` holding `text/html;profile=mcp-app` in this request's client capabilities
 * (2026-07-28), or in its session's `initialize` (2025 eras). Read per request, so a method can
 * shape its result for this caller; a caller that renders none still needs a complete text answer.
 *
 * @example const text = rendersViews(ctx) ? "Shown in the dashboard." : describeWeather(weather);
 */
export function rendersViews(ctx: { readonly clientCapabilities: Readonly<ClientCapabilities> }): boolean {
  const mimeTypes = clientExtension(ctx.clientCapabilities, UI_EXTENSION)?.mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(VIEW_MIME_TYPE);
}
