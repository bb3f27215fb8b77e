// Benchmark reference: the official SDK alone, as the framework must use it — `createMcpHandler`
// with a fresh low-level `Server` per request answering the same fixed tools/call result, behind a
// minimal node:http adapter. No framework code runs, so "app / sdk-only" is the framework's own
// overhead and "sdk-only / ceiling" the most any framework on this SDK path can reach.
// Prints its URL on one line when ready; exits on SIGTERM, SIGINT or when stdin ends.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { exitWhenAsked } from "./exit-when-asked";

const RESULT = { content: [{ type: "text" as const, text: JSON.stringify({ sum: 3 }) }], structuredContent: { sum: 3 } };

const handler = createMcpHandler(() => {
  const server = new Server({ name: "sdk-only", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/call", async () => RESULT);
  return server;
});

const http = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const response = await handler.fetch(
    new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }),
  );
  const payload = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": String(payload.length) }).end(payload);
});

http.listen(0, "127.0.0.1", () => {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});

exitWhenAsked(
  () =>
    new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    }),
);
