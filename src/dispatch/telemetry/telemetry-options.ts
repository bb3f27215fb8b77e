/** Anything with OpenTelemetry's `TracerProvider.getTracer` (typed loosely: the API is an optional peer). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** Anything with OpenTelemetry's `MeterProvider.getMeter`. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/**
 * Spans and metrics per the OpenTelemetry semantic conventions for MCP, through
 * `@opentelemetry/api` (an optional peer dependency: install it to use this). `McpApp.create({
 * telemetry: true })` uses the globally registered providers (what the OpenTelemetry Node SDK
 * registers); give providers here to use others.
 *
 * @example McpApp.create({ components, state, telemetry: { recordContent: false } })
 */
export interface TelemetryOptions {
  /** Where spans go; default the global tracer provider. */
  tracerProvider?: TracerProviderLike;
  /** Where the `mcp.server.operation.duration` histogram goes; default the global meter provider. */
  meterProvider?: MeterProviderLike;
  /**
   * Record what callers and components said: tool arguments (`gen_ai.tool.call.arguments`), tool
   * results (`gen_ai.tool.call.result`) and the elicitation answers a round carried
   * (`roundtrip_mcp.answers`), as JSON text. Default false: they may hold personal data or secrets.
   */
  recordContent?: boolean;
}

/** The attribute prefix of what the MCP conventions do not cover (rounds, carried state, tasks). */
export const TELEMETRY_ATTRIBUTE_PREFIX = "roundtrip_mcp.";

/** The instrumentation scope every tracer and meter of the framework is named with. */
export const INSTRUMENTATION_SCOPE = "roundtrip-mcp";
