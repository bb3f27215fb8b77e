import type * as OpenTelemetryApi from "@opentelemetry/api";

/** The command that installs the API: an optional peer dependency of roundtrip-mcp. */
export const OPENTELEMETRY_INSTALL_COMMAND = "npm install @opentelemetry/api@1";

/**
 * Loads `@opentelemetry/api` when an app enables telemetry, and only then: an app without the
 * `telemetry` option never loads it, nor needs it installed.
 */
export function loadOpenTelemetry(): typeof OpenTelemetryApi {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the API is an optional peer
    return require("@opentelemetry/api") as typeof OpenTelemetryApi;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const missing = (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND" && message.includes("'@opentelemetry/api'");
    throw new Error(
      missing
        ? "McpApp.create: the telemetry option needs the package @opentelemetry/api, which is not installed (roundtrip-mcp lists it " +
            `as an optional peer dependency). In your app, run: ${OPENTELEMETRY_INSTALL_COMMAND}`
        : `McpApp.create: the telemetry option needs @opentelemetry/api, which could not be loaded: ${message.split("\n")[0]}`,
      { cause: error },
    );
  }
}
