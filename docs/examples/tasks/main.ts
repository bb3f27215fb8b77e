import "reflect-metadata";
import { McpApp, tasks } from "roundtrip-mcp";
import { OrderExports } from "./export-tool";

/** One machine, no setup: tasks.sqlite in DATA_DIR (or <tmpdir>/roundtrip-mcp/order-exports). */
export function createExportApp(): McpApp {
  return McpApp.create({
    name: "order-exports",
    components: [OrderExports],
    state: { keysFromEnv: "STATE_KEYS" },
    features: [tasks({ storeOptions: { dataDir: process.env.DATA_DIR } })],
  });
}

/** Several instances: each one on the same PostgreSQL database, with the same state keys. */
export function createSharedExportApp(databaseUrl: string): McpApp {
  return McpApp.create({
    components: [OrderExports],
    state: { keysFromEnv: "STATE_KEYS" },
    features: [tasks({ store: databaseUrl, leaseMs: 30_000 })],
  });
}
