import "reflect-metadata";
import { McpApp, Tool } from "roundtrip-mcp";
import { PostgresRateLimitStore } from "roundtrip-mcp/stores";

class Search {
  // Five searches a minute per caller, whatever the app's default.
  @Tool({ description: "Searches the catalogue", rateLimit: { limit: 5, windowMs: 60_000 } })
  search() {
    return "results";
  }

  // Never limited: a cheap status check.
  @Tool({ rateLimit: false })
  status() {
    return "ok";
  }
}

export async function start(): Promise<McpApp> {
  // One budget shared by every instance on this database.
  const store = await PostgresRateLimitStore.open({ connectionString: process.env.DATABASE_URL! });
  return McpApp.create({
    components: [Search],
    state: { keysFromEnv: "STATE_KEYS" },
    // 60 calls a minute per caller and per component, for every component without its own.
    rateLimits: { default: { limit: 60, windowMs: 60_000 }, store },
  });
}
