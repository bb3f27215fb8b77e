import { LEGACY_RESOURCE_URI_META, UI_EXTENSION, VIEW_MIME_TYPE } from "../features/apps/ui-extension";
import { isPlainObject } from "../protocol/plain-object";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { CallOptions } from "./flow-options";
import type { Flow } from "./flow";
import type { TestClient } from "./test-client";
import type { ReadResourceResult, WireResult } from "./wire-messages";
import type { ToolResult } from "../protocol/content";

/** What a host that renders MCP Apps views declares; a view's calls reach the server with it (through its host). */
export const VIEW_HOST_CAPABILITIES: ClientCapabilities = Object.freeze({
  extensions: Object.freeze({ [UI_EXTENSION]: Object.freeze({ mimeTypes: Object.freeze([VIEW_MIME_TYPE]) }) }),
}) as ClientCapabilities;

/** A tool's view as `tools/list` gives it: both keys hosts read, and who may call it. */
export interface ToolViewLink {
  /** The tool's name. */
  readonly tool: string;
  /** `_meta.ui.resourceUri`. */
  readonly resourceUri: string | undefined;
  /** The older `_meta["ui/resourceUri"]`. */
  readonly legacyResourceUri: string | undefined;
  /** `_meta.ui.visibility` as listed; undefined when absent (hosts then read both audiences). */
  readonly visibility: readonly ("model" | "app")[] | undefined;
  /** The tool's whole list entry. */
  readonly entry: JsonObject;
}

/** A view as a host receives it: its list entry, the content of its read, and the `_meta.ui` a host applies. */
export interface ReadView {
  /** The view's `ui://` uri. */
  readonly uri: string;
  /** The content's MIME type: `text/html;profile=mcp-app` (readView throws otherwise). */
  readonly mimeType: string | undefined;
  /** The HTML document (the content's `text`, or its `blob` decoded). */
  readonly html: string;
  /** Its `resources/list` entry, or undefined when the server lists it not. */
  readonly listed: JsonObject | undefined;
  /** The read's content item. */
  readonly content: JsonObject;
  /** What a host applies: the content's `_meta.ui`, else the list entry's (`{}` when neither has one). */
  readonly ui: JsonObject;
  /** The whole `resources/read` result. */
  readonly result: ReadResourceResult;
}

/**
 * The view a tool names in `tools/list` (every page), with both metadata keys as listed. Throws
 * when the server lists no such tool.
 *
 * @example const link = await viewLinkOf(client, "show_theme"); expect(link.legacyResourceUri).toBe(link.resourceUri);
 */
export async function viewLinkOf(client: TestClient, tool: string): Promise<ToolViewLink> {
  const entry = (await client.listAll("tools/list")).items.find((t) => t.name === tool);
  if (entry === undefined) throw new Error(`viewLinkOf: the server lists no tool named "${tool}"`);
  const meta = isPlainObject(entry._meta) ? entry._meta : {};
  const ui = isPlainObject(meta.ui) ? meta.ui : {};
  return {
    tool,
    resourceUri: typeof ui.resourceUri === "string" ? ui.resourceUri : undefined,
    legacyResourceUri: typeof meta[LEGACY_RESOURCE_URI_META] === "string" ? (meta[LEGACY_RESOURCE_URI_META] as string) : undefined,
    visibility: Array.isArray(ui.visibility) ? (ui.visibility as ("model" | "app")[]) : undefined,
    entry,
  };
}

/**
 * Reads a view as a host does: `resources/read` of its uri, and its `resources/list` entry (every
 * page). Throws when the read fails, or answers no content of the MCP Apps MIME type
 * (`text/html;profile=mcp-app`) for that uri.
 *
 * @example const view = await readView(client, "ui://weather/dashboard"); expect(view.ui).toEqual({ prefersBorder: true });
 */
export async function readView(client: TestClient, uri: string, options: CallOptions = {}): Promise<ReadView> {
  const flow = await client.readResource(uri, options);
  if (flow.status !== "complete") throw new Error(`readView: reading ${uri} ended ${flow.status}: ${JSON.stringify(flow.response)}`);
  const result = flow.result;
  const content = (result.contents as JsonObject[]).find((c) => c.uri === uri);
  if (content === undefined) throw new Error(`readView: the read of ${uri} has no content for that uri`);
  const mimeType = typeof content.mimeType === "string" ? content.mimeType : undefined;
  if (mimeType !== VIEW_MIME_TYPE) throw new Error(`readView: ${uri} is ${JSON.stringify(mimeType)}, not ${VIEW_MIME_TYPE}`);
  const html = typeof content.text === "string" ? content.text : Buffer.from(String(content.blob ?? ""), "base64").toString("utf8");
  const listed = (await client.listAll("resources/list")).items.find((r) => r.uri === uri);
  const uiOf = (item: JsonObject | undefined) => (isPlainObject(item?._meta) && isPlainObject(item._meta.ui) ? item._meta.ui : undefined);
  return { uri, mimeType, html, listed, content, ui: uiOf(content) ?? uiOf(listed) ?? {}, result };
}

/**
 * Calls a tool as one of its views would, through a host: the request declares
 * `VIEW_HOST_CAPABILITIES` beside the client's own capabilities, and, as a host must, it is
 * refused (an Error, nothing sent) when the tool's listed visibility leaves out `"app"`.
 *
 * @example const styles = await callAsView(client, "style_options", { color: "red" }); expect(styles.result.structuredContent).toMatchObject({ color: "red" });
 */
export async function callAsView(
  client: TestClient,
  tool: string,
  args: JsonObject = {},
  options: CallOptions = {},
): Promise<Flow<WireResult & ToolResult>> {
  const visibility = (await viewLinkOf(client, tool)).visibility ?? ["model", "app"];
  if (!visibility.includes("app"))
    throw new Error(`callAsView: ${tool} is listed with visibility ${JSON.stringify(visibility)}; a host refuses a view's call to it`);
  const own = options.capabilities ?? client.capabilities;
  const capabilities: ClientCapabilities = {
    ...own,
    extensions: { ...(isPlainObject(own.extensions) ? own.extensions : {}), ...VIEW_HOST_CAPABILITIES.extensions },
  };
  return client.callTool(tool, args, { ...options, capabilities });
}
