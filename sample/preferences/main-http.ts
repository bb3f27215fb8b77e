// Serves the preferences sample over Streamable HTTP on 127.0.0.1: `npm start`. The first stdout
// line is the URL. Its environment:
// - PORT: the port (default 3000; 0 takes a free one);
// - STATE_KEYS: the key ring sealing requestState and 2025 session ids (`id:base64secret`,
//   comma-separated, the first seals); unset, a random key of this process (one instance only);
// - MCP_BUS: a `postgres://` URL; set, the answers of 2025 sessions and change notifications go
//   through that database, which also keeps what the instances share of a 2025 session (its
//   streams' replay log, the calls waiting for an answer), so several instances with one
//   STATE_KEYS behind a plain (round-robin) load balancer serve one session, and a stream resumes
//   on any of them. It needs STATE_KEYS.
// - HOST, ALLOWED_HOSTS, MCP_POLL_AFTER_MS, MCP_RETRY_MS, MCP_TAKEOVER_AFTER_MS and
//   MCP_DRAIN_TIMEOUT_MS: where it listens and what an operator tunes behind a balancer
//   (serving-env.ts). It serves GET /healthz and /readyz beside /mcp.
// - OTEL_EXPORTER_OTLP_ENDPOINT turns on OpenTelemetry (docs/telemetry.md).
// It also serves the skills in ./skills (SEP-2640) and its server card at /mcp/server-card.
import { skills } from "roundtrip-mcp";
import { type MessageBus, openMessageBus } from "roundtrip-mcp/stores";
import { createPreferencesApp, PREFERENCES_LISTING } from "./preferences-app";
import { sampleFolder } from "../sample-folder";
import { closeOnSignal } from "../close-on-signal";
import { listenOptions, servingFromEnv } from "./serving-env";
import { startTelemetry } from "../start-telemetry";

async function main(): Promise<void> {
  const serving = servingFromEnv();
  const keys = Boolean(process.env.STATE_KEYS?.trim());
  if (process.env.MCP_BUS && !keys)
    throw new TypeError(
      "MCP_BUS is set but STATE_KEYS is not: instances sharing a bus must share a key ring, or none can open another's session ids; set STATE_KEYS (id:base64secret, the same on every instance)",
    );
  let bus: MessageBus | undefined;
  if (process.env.MCP_BUS) bus = await openMessageBus(process.env.MCP_BUS);
  // OpenTelemetry (traces and metrics over OTLP/HTTP) when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const otel = startTelemetry("roundtrip-mcp-preferences");
  const app = createPreferencesApp({
    state: keys ? { keysFromEnv: "STATE_KEYS" } : { ephemeral: true },
    bus,
    sessions: serving.sessions,
    ...(otel === undefined ? {} : { telemetry: otel.telemetry }),
    ...PREFERENCES_LISTING,
    // The skills, listed after the apps feature createPreferencesApp gives the sample's view.
    features: [skills({ folder: sampleFolder(__dirname, "skills") })],
  });
  const listener = await app.listen({ ...listenOptions(serving), serverCard: true });
  console.log(`preferences sample listening on ${listener.url}`);
  // The bus is ours, not the app's: closed after the app has drained; the OpenTelemetry SDK shuts
  // down last, so what the last requests recorded is exported.
  closeOnSignal({ close: () => app.close().finally(async () => (await bus?.close(), await otel?.shutdown())) });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
