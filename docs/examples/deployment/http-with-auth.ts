import "reflect-metadata";
import type { IncomingMessage } from "node:http";
import { McpApp, StderrLogger } from "roundtrip-mcp";
import { Palette } from "../interactive/declarative";

/** Maps a request to a principal; null rejects it with 401. Replace with real token verification. */
async function authenticate(request: IncomingMessage): Promise<string | null> {
  const header = request.headers.authorization ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7) : "";
  return token === process.env.DEMO_TOKEN ? "demo-user" : null;
}

const app = McpApp.create({
  name: "palette",
  version: "1.0.0",
  components: [Palette],
  // Every instance behind the load balancer reads the same ring: no sticky sessions needed.
  state: { keysFromEnv: "STATE_KEYS" },
  logger: new StderrLogger("info"),
});

void app
  .listen({
    host: "0.0.0.0",
    port: Number(process.env.PORT ?? 8080),
    path: "/mcp",
    allowedHosts: ["mcp.example.com"],
    authenticate,
    health: true, // GET /healthz and /readyz, for the orchestrator's probes
  })
  .then((listener) => {
    console.error(`listening on ${listener.url}`);
    // A graceful stop: new requests get 503, those in flight finish (up to 10 s), tasks are
    // handed over. The handlers run once: a second signal ends the process at once.
    const stop = () => void app.close().then(() => process.exit(0), () => process.exit(1));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
