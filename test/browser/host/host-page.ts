// A test host for MCP Apps, run in headless Chromium by test/browser/apps-browser.test.ts: the
// official client (@modelcontextprotocol/client 2.4.0) connected to a server over HTTP, and the
// official host bridge (@modelcontextprotocol/ext-apps/app-bridge) between it and the view. Like
// a host, it reads the tool's view (resources/read), renders it in a sandboxed iframe with the
// Content Security Policy built from the view's `_meta.ui` (the read's content item, else its list
// entry), refuses the view's calls to tools that are not visible to apps, and answers the
// questions of the server's input_required rounds as a user would (a scripted user here).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, buildAllowAttribute, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";

interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

interface ViewUi {
  csp?: Csp;
  permissions?: Record<string, object>;
  prefersBorder?: boolean;
}

interface ToolEntry {
  name: string;
  _meta?: Record<string, unknown>;
}

/** What the host did, in order: read by the test. */
const log: { event: string; detail?: unknown }[] = [];
const note = (event: string, detail?: unknown): void => void log.push({ event, detail });

/** The policy the spec says a host builds from `_meta.ui.csp` (the restrictive default for what is absent). */
function policyOf(csp: Csp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(" ");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${(csp?.connectDomains ?? []).join(" ")}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${csp?.frameDomains?.join(" ") || "'none'"}`,
    "object-src 'none'",
    `base-uri ${csp?.baseUriDomains?.join(" ") || "'self'"}`,
  ]
    .map((directive) => directive.trim())
    .join("; ");
}

/** The view's HTML with the policy as the first element of its head. */
function withPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + meta) : meta + html;
}

/** The scripted user: the first choice offered for each question, unless the test set an answer for its field. */
function answerOf(schema: { properties?: Record<string, { enum?: unknown[]; oneOf?: { const: unknown }[] }> }): Record<string, unknown> {
  const wanted = (window as unknown as { hostAnswers?: Record<string, unknown> }).hostAnswers ?? {};
  const content: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {}))
    content[field] = wanted[field] ?? property.enum?.[0] ?? property.oneOf?.[0]?.const;
  return content;
}

/** Opens the tool's view and runs the tool, as a host does when the model calls it. */
async function runTool(endpoint: string, name: string, args: Record<string, unknown>): Promise<void> {
  const client = new Client(
    { name: "roundtrip-mcp-test-host", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} }, extensions: { [UI]: { mimeTypes: [MIME] } } } },
  );
  client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { message: string; requestedSchema: Parameters<typeof answerOf>[0] };
    const content = answerOf(params.requestedSchema);
    note("elicitation", { message: params.message, content });
    return { action: "accept", content } as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint, location.href)));
  const tools = (await client.listTools()).tools as ToolEntry[];
  const tool = tools.find((t) => t.name === name);
  const uri = tool && getToolUiResourceUri(tool);
  if (uri === undefined) throw new Error(`tool ${name} has no view`);
  const listed = ((await client.listResources()).resources as { uri: string; _meta?: { ui?: ViewUi } }[]).find((r) => r.uri === uri);
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: { ui?: ViewUi } };
  if (content.mimeType !== MIME || content.text === undefined) throw new Error(`${uri} is not an MCP Apps view`);
  // The content item's _meta.ui wins over the list entry's.
  const ui: ViewUi = content._meta?.ui ?? listed?._meta?.ui ?? {};
  const policy = policyOf(ui.csp);
  note("view", { uri, policy, prefersBorder: ui.prefersBorder });

  const iframe = document.createElement("iframe");
  iframe.id = "view-frame";
  // An opaque origin: scripts run, but the view shares nothing with the host page.
  iframe.setAttribute("sandbox", "allow-scripts");
  const allow = buildAllowAttribute(ui.permissions as never);
  if (allow) iframe.setAttribute("allow", allow);
  if (ui.prefersBorder === false) iframe.style.border = "0";
  iframe.srcdoc = withPolicy(content.text, policy);

  const bridge = new AppBridge(client, { name: "roundtrip-mcp-test-host", version: "1.0.0" }, { serverTools: {}, serverResources: {} });
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  document.getElementById("view")!.append(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  // A view calls only tools whose visibility includes "app" (the bridge itself forwards any).
  bridge.oncalltool = async (params, extra) => {
    const target = tools.find((t) => t.name === params.name);
    const visibility = (target?._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ["model", "app"];
    note("view-call", { name: params.name, arguments: params.arguments });
    if (target === undefined || !visibility.includes("app")) throw new Error(`tool ${params.name} is not callable from a view`);
    const result = await client.callTool(params, { signal: extra.mcpReq.signal });
    note("view-result", { name: params.name, structuredContent: result.structuredContent });
    return result;
  };
  await initialized;
  note("initialized");
  await bridge.sendToolInput({ arguments: args });
  const result = await client.callTool({ name, arguments: args });
  note("tool-result", { structuredContent: result.structuredContent, text: result.content });
  await bridge.sendToolResult(result);
}

Object.assign(window, {
  hostLog: log,
  runTool: (endpoint: string, name: string, args: Record<string, unknown>) =>
    runTool(endpoint, name, args).catch((error: unknown) => {
      note("error", String(error instanceof Error ? (error.stack ?? error.message) : error));
      throw error;
    }),
});
