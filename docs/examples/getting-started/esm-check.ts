import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { McpApp } from "roundtrip-mcp";
import { createTestClient } from "roundtrip-mcp/testing";
import { MemoryTaskStore } from "roundtrip-mcp/stores";
import type { FeatureModule } from "roundtrip-mcp/features";
import { GreeterTools } from "./greeter.js";

// Every entry point, imported from an ES module, and one flow through the real dispatcher.
async function main(): Promise<void> {
  const features: FeatureModule[] = [];
  const app = McpApp.create({ name: "greeter-esm", components: [GreeterTools], state: { secret: randomBytes(32) }, features });
  await new MemoryTaskStore().close();
  const client = await createTestClient(app);
  const flow = await client.callTool("greet", { name: "Ada" });
  await client.close();
  await app.close();
  if (flow.text !== "Hello, Ada!") throw new Error(`expected "Hello, Ada!", got ${JSON.stringify(flow.text)}`);
  console.log(`esm check: ${flow.text}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
