// Serves the preferences sample over Streamable HTTP on 127.0.0.1: `npm start`.
// PORT picks the port (default 3000; 0 takes a free one). The first stdout line is the URL.
// OTEL_EXPORTER_OTLP_ENDPOINT turns on OpenTelemetry (docs/telemetry.md).
import { createPreferencesApp } from "./preferences-app";
import { closeOnSignal } from "../close-on-signal";
import { startTelemetry } from "../start-telemetry";

async function main(): Promise<void> {
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  // OpenTelemetry (traces and metrics over OTLP/HTTP) when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const otel = startTelemetry("roundtrip-mcp-preferences");
  const app = createPreferencesApp(otel === undefined ? {} : { telemetry: otel.telemetry });
  const listener = await app.listen({ host: "127.0.0.1", port, path: "/mcp" });
  console.log(`preferences sample listening on ${listener.url}`);
  // The SDK shuts down after the app drained: what the last requests recorded is exported.
  closeOnSignal({ close: async () => (await app.close(), await otel?.shutdown()) });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
