import "reflect-metadata";
import { Hono } from "hono";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { McpApp, NodeHandlerOptions } from "roundtrip-mcp";

/** The app on Hono 4, served on Node by @hono/node-server, at /mcp beside the health endpoints. */
export function honoApp(app: McpApp, options: NodeHandlerOptions): Hono<{ Bindings: HttpBindings }> {
  const hono = new Hono<{ Bindings: HttpBindings }>();
  const mcp = app.nodeHandler(options);
  const health = app.healthHandler();
  hono.get("/healthz", (c) => health.fetch(c.req.raw));
  hono.get("/readyz", (c) => health.fetch(c.req.raw));
  // The Node request and response under Hono's: the handler reads the body and writes the answer.
  hono.all("/mcp", (c) => {
    mcp(c.env.incoming, c.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  });
  return hono;
}
