import "reflect-metadata";
import { McpApp } from "roundtrip-mcp";
import { openMessageBus } from "roundtrip-mcp/stores";
import { Palette } from "../interactive/declarative";

export async function serve(): Promise<void> {
  const bus = await openMessageBus(process.env.MCP_BUS!); // postgres://app@db.internal/app
  const app = McpApp.create({
    name: "palette",
    version: "1.0.0",
    components: [Palette],
    state: { keysFromEnv: "STATE_KEYS" }, // the same value on every instance
    bus,
  });
  await app.listen({ port: 8080 });
  // On SIGTERM: the app first (it drains), then the bus, which is yours.
  process.once("SIGTERM", () => void app.close().finally(() => bus.close()));
}
