// Pins the routes beside the MCP path of listen()'s listener (http/http-routes.ts):
// - a request for a route's exact pathname is answered by the route, never by the MCP handler;
// - it runs after the Host check (a refused Host is 403, the route not called);
// - a pathname with no route is still 404, and the MCP path still reaches the handler.
import "reflect-metadata";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { BUILT_IN_FEATURES } from "../../../../src/features/built-in-features";
import { FeatureTable } from "../../../../src/features/feature-table";
import { InboundChecks } from "../../../../src/server/checks/inbound-checks";
import { resolveRequestLimits } from "../../../../src/server/checks/request-limits";
import { HttpAnswerer } from "../../../../src/server/http/http-answerer";
import { startHttpListener } from "../../../../src/server/http/http-listener";
import type { HttpRoute } from "../../../../src/server/http/http-routes";
import type { HttpListener } from "../../../../src/server/http/listen-options";
import { SilentLogger } from "../../../../src/testing/index";

let listener: HttpListener;
const handled: string[] = [];
const routed: string[] = [];

beforeAll(async () => {
  const sdk: McpHttpHandler = {
    fetch: async (request: Request) => {
      handled.push(new URL(request.url).pathname);
      return Response.json({ handled: true });
    },
    close: async () => undefined,
  } as unknown as McpHttpHandler;
  const checks = new InboundChecks(
    new FeatureTable(BUILT_IN_FEATURES, { components: [], logger: new SilentLogger() }),
    resolveRequestLimits(),
  );
  const healthz: HttpRoute = (req, res) => {
    routed.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  };
  listener = await startHttpListener(
    new HttpAnswerer(sdk, checks, undefined),
    {},
    new SilentLogger(),
    (error) => {
      throw error;
    },
    new Map([["/healthz", healthz]]),
  );
});

afterAll(() => listener.close({ drainTimeoutMs: 0 }));

const at = (pathname: string) => listener.url.replace(/\/mcp$/, pathname);

describe("listen() routes beside the MCP path", () => {
  it("answers a route's pathname with the route, not the MCP handler", async () => {
    const response = await fetch(at("/healthz"));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(routed).toEqual(["/healthz"]);
    expect(handled).toEqual([]);
  });

  it("refuses a bad Host before the route runs", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(at("/healthz"), { headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject).end();
    });
    expect(status).toBe(403);
    expect(routed).toEqual(["/healthz"]);
  });

  it("keeps 404 for other pathnames and the MCP path for the handler", async () => {
    expect((await fetch(at("/other"))).status).toBe(404);
    const response = await fetch(listener.url, { method: "GET" });
    expect(await response.json()).toEqual({ handled: true });
    expect(handled).toEqual(["/mcp"]);
  });
});
