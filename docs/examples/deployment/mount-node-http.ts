import "reflect-metadata";
import { createServer, type Server } from "node:http";
import type { McpApp, NodeHandlerOptions } from "roundtrip-mcp";

/** The app in a plain node:http server of your own, beside the health endpoints. */
export function nodeHttpServer(app: McpApp, options: NodeHandlerOptions): Server {
  const mcp = app.nodeHandler(options);
  const health = app.healthHandler();
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/mcp") return mcp(req, res);
    health.node(req, res); // /healthz and /readyz; 404 for anything else
  });
}
