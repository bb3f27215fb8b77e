// Pins the Vercel AI SDK's MCP client (@ai-sdk/mcp 1.0.102, a 2025-11-25 client that shows only an
// error's message) against the preferences sample, over HTTP (listen() on 127.0.0.1 port 0, a 2025
// session) and stdio (the compiled sample as a child process):
// - it connects, lists the sample's tools and runs choose_preferences through the SDK's own
//   elicitation handler: colour, then a style whose choices follow the colour, then the result;
// - over stdio every server message validates against the official 2025-11-25 schema, in that
//   shape (no resultType, ttlMs or cacheScope; test/support/wire-tap.ts);
// - a URL question to a client that declared only form elicitation fails with a message that
//   names the missing capability (the AI SDK drops `data`).
import * as path from "node:path";
import { createMCPClient, ElicitationRequestSchema, type MCPClient, type MCPTransport } from "@ai-sdk/mcp";
// The package's "./mcp-stdio" export; its types are read from the file (moduleResolution "node" ignores exports maps).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the subpath resolves at run time through the exports map only
const { Experimental_StdioMCPTransport } = require("@ai-sdk/mcp/mcp-stdio") as typeof import("@ai-sdk/mcp/dist/mcp-stdio/index");
import type { Transport } from "@modelcontextprotocol/client";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import type { HttpListener, McpApp } from "../../src/index";
import { SilentLogger } from "../../src/testing/index";
import { WireTap } from "../support/wire-tap";

const STDIO_SAMPLE = path.resolve(__dirname, "../../dist/sample/preferences/main-stdio.js");

/** Answers the sample's two questions as a user would: green, then the first style offered. */
function answerAsUser(client: MCPClient, asked: string[]): void {
  client.onElicitationRequest(ElicitationRequestSchema, async (request) => {
    asked.push(request.params.message);
    const schema = request.params.requestedSchema as { properties: Record<string, { enum?: string[] }> };
    const [name, property] = Object.entries(schema.properties)[0]!;
    return { action: "accept", content: { [name]: name === "color" ? "green" : property.enum![0]! } };
  });
}

async function runFlow(client: MCPClient): Promise<unknown> {
  const tools = await client.tools();
  // style_options is app-only (visibility ["app"]): hosts hide it from the model; the AI SDK lists every tool.
  expect(Object.keys(tools).sort()).toEqual(["choose_preferences", "preview_theme", "reset_preferences", "show_theme", "style_options"]);
  return tools.choose_preferences!.execute({}, { toolCallId: "call-1", messages: [] });
}

describe("@ai-sdk/mcp against the preferences sample", () => {
  let app: McpApp;
  let listener: HttpListener;
  beforeAll(async () => {
    app = createPreferencesApp({ logger: new SilentLogger() });
    listener = await app.listen({ port: 0 });
  });
  afterAll(async () => {
    await listener.close();
    await app.close();
  });

  it("completes choose_preferences over HTTP", async () => {
    const client = await createMCPClient({ transport: { type: "http", url: listener.url }, capabilities: { elicitation: {} } });
    try {
      const asked: string[] = [];
      answerAsUser(client, asked);
      const result = (await runFlow(client)) as { structuredContent?: unknown; isError?: boolean };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ color: "green", style: "forest" });
      expect(asked).toEqual(["Which colour do you prefer?", "Which green style?"]);
    } finally {
      await client.close();
    }
  });

  it("completes choose_preferences over stdio, every message in the 2025-11-25 shape", async () => {
    const transport = new Experimental_StdioMCPTransport({ command: process.execPath, args: [STDIO_SAMPLE], stderr: "ignore" });
    const tap = new WireTap(transport as unknown as Transport);
    const client = await createMCPClient({ transport: tap as unknown as MCPTransport, capabilities: { elicitation: {} } });
    try {
      const asked: string[] = [];
      answerAsUser(client, asked);
      const result = (await runFlow(client)) as { structuredContent?: unknown };
      expect(result.structuredContent).toEqual({ color: "green", style: "forest" });
      expect(asked).toEqual(["Which colour do you prefer?", "Which green style?"]);
      expect(tap.revision).toBe("2025-11-25");
      expect(tap.received.length).toBeGreaterThanOrEqual(5);
      expect(tap.violations).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("shows a form-only client why it cannot be asked for URL consent, in the message it keeps", async () => {
    const client = await createMCPClient({ transport: { type: "http", url: listener.url }, capabilities: { elicitation: {} } });
    try {
      answerAsUser(client, []);
      const tools = await client.tools();
      const failure = await Promise.resolve(tools.preview_theme!.execute({}, { toolCallId: "call-2", messages: [] })).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toContain(
        "Missing required client capability: elicitation.url. This client did not declare it at initialize",
      );
    } finally {
      await client.close();
    }
  });
});
