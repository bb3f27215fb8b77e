// Benchmark reference: a bare node:http server that reads each POST body and answers a fixed
// JSON-RPC result, the same shape the app returns for the benchmark's tools/call. It does no MCP
// work, so its calls per second are what this machine's loopback HTTP allows (the ceiling).
// Prints its URL on one line when ready; exits on SIGTERM, SIGINT or when stdin ends.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exitWhenAsked } from "./exit-when-asked";

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: {
    content: [{ type: "text", text: JSON.stringify({ sum: 3 }) }],
    structuredContent: { sum: 3 },
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "roundtrip-mcp-app", version: "0.0.0" } },
  },
});
const HEADERS = { "content-type": "application/json", "content-length": String(Buffer.byteLength(BODY)) };

const server = createServer((req, res) => {
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  // Consume the request body as any real server must, then answer.
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, HEADERS).end(BODY);
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});

exitWhenAsked(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
