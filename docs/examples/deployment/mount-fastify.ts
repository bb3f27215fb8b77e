import "reflect-metadata";
import Fastify, { type FastifyInstance } from "fastify";
import type { McpApp, NodeHandlerOptions } from "roundtrip-mcp";

/** The app on Fastify 5 at /mcp, beside the health endpoints and routes of your own. */
export function fastifyServer(app: McpApp, options: NodeHandlerOptions): FastifyInstance {
  const server = Fastify();
  const mcp = app.nodeHandler(options);
  const health = app.healthHandler();
  server.get("/healthz", (request, reply) => (reply.hijack(), health.node(request.raw, reply.raw)));
  server.get("/readyz", (request, reply) => (reply.hijack(), health.node(request.raw, reply.raw)));
  // In a plugin of its own, with a parser that leaves the body unread: the handler reads it,
  // within the app's limits. Fastify's JSON parser stays in place for your other routes.
  void server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    scope.all("/mcp", (request, reply) => {
      reply.hijack(); // the handler writes the answer itself
      mcp(request.raw, reply.raw);
    });
  });
  return server;
}
