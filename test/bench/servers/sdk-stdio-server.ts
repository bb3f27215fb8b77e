// Startup reference: two tools written on the official SDK's McpServer and served with its
// serveStdio, as its README shows: the smallest modern stdio server an SDK user writes. The
// startup benchmark measures the time from spawn to its first `server/discover` answer.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "sdk-stdio", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("add", { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool("echo", { description: "Echoes a text", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
});
