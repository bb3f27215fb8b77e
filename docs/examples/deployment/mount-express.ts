import "reflect-metadata";
import express from "express";
import type { McpApp, NodeHandlerOptions } from "roundtrip-mcp";

/** The app on Express 5 at /mcp, beside the health endpoints and routes of your own. */
export function expressServer(app: McpApp, options: NodeHandlerOptions): express.Express {
  const server = express();
  const health = app.healthHandler();
  server.get(["/healthz", "/readyz"], (req, res) => health.node(req, res));
  // Before any body parser: the handler reads the body itself, within the app's limits.
  server.all("/mcp", app.nodeHandler(options));
  server.use(express.json()); // for your own routes below
  return server;
}
