// Serves the preferences sample on stdin/stdout: `npm run start:stdio`.
// Diagnostics (including the ephemeral-key warning) go to stderr; stdout carries only MCP.
// SIGTERM / SIGINT close it gracefully: requests in flight are answered first.
// OTEL_EXPORTER_OTLP_ENDPOINT turns on OpenTelemetry (docs/telemetry.md); nothing of it writes to stdout.
import { createPreferencesApp } from "./preferences-app";
import { closeOnSignal } from "../close-on-signal";
import { startTelemetry } from "../start-telemetry";

const otel = startTelemetry("roundtrip-mcp-preferences");
const app = createPreferencesApp(otel === undefined ? {} : { telemetry: otel.telemetry });
app.serveStdio();
closeOnSignal({ close: async () => (await app.close(), await otel?.shutdown()) });
