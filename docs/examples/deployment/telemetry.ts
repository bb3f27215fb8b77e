import "reflect-metadata";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { McpApp, pinoLogger } from "roundtrip-mcp";
import { Palette } from "../interactive/declarative";

// Start the SDK first: the app takes the global providers it registers when it is created.
// new NodeSDK() configures itself from the OTEL_* variables (exporters, sampler, service name).
const sdk = new NodeSDK();
sdk.start();

const app = McpApp.create({
  components: [Palette],
  state: { keysFromEnv: "STATE_KEYS" },
  telemetry: true,
  // Every entry made while a request is handled carries requestId, traceId and principal.
  logger: pinoLogger({ level: "info" }),
});

const listening = app.listen({ port: 3000 });

// Export what the last requests recorded: close the app (it drains), then the SDK.
process.once("SIGTERM", () => {
  void listening
    .then(() => app.close())
    .then(() => sdk.shutdown())
    .then(() => process.exit(0));
});
