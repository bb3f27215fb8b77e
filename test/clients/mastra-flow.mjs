// Run by the Node 22 binary of this folder (run-client-libraries.ts starts it): Mastra's MCP client
// (@mastra/mcp, 2026-07-28 with embedded input requests) against the preferences sample, over the
// HTTP URL in SAMPLE_URL and over stdio (SERVER_NODE running SAMPLE_STDIO). For each transport it
// lists the tools, runs choose_preferences through its `inputRequests` handler (two form questions),
// then preview_theme (URL consent, declared with capabilities.elicitation.url), and prints one JSON
// line: { transport, protocolVersion, tools, asked, result, consent } or { transport, error }.
/* global process, URL, console */
import { MCPClient } from "@mastra/mcp";

const { SAMPLE_URL, SAMPLE_STDIO, SERVER_NODE } = process.env;

function answers(asked) {
  return async ({ key, params }) => {
    asked.push({ key, mode: params.mode ?? "form", message: params.message });
    if (params.mode === "url") return { action: "accept" };
    const property = params.requestedSchema?.properties?.[key];
    return { action: "accept", content: { [key]: key === "color" ? "green" : property.enum[0] } };
  };
}

async function run(transport, server) {
  const asked = [];
  const capabilities = { elicitation: { form: {}, url: {} } };
  const mcp = new MCPClient({ id: `prefs-${transport}`, servers: { prefs: { ...server, capabilities, inputRequests: answers(asked) } } });
  try {
    const tools = await mcp.listTools();
    const names = Object.keys(tools).sort();
    const result = await tools.prefs_choose_preferences.execute({}, { toolCallId: "call-1", messages: [] });
    const consent = await tools.prefs_preview_theme.execute({}, { toolCallId: "call-2", messages: [] });
    return { transport, protocolVersion: mcp.getServerProtocolVersions().prefs, tools: names, asked, result, consent };
  } catch (error) {
    return { transport, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    await mcp.disconnect();
  }
}

const outcomes = [
  await run("http", { url: new URL(SAMPLE_URL) }),
  await run("stdio", { command: SERVER_NODE, args: [SAMPLE_STDIO], stderr: "ignore" }),
];
for (const outcome of outcomes) console.log(JSON.stringify(outcome));
