// The samples' OpenTelemetry: when OTEL_EXPORTER_OTLP_ENDPOINT is set, the OpenTelemetry Node SDK
// starts with OTLP/HTTP exporters for traces and metrics, configured by the standard variables
// (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf (default) or http/json, OTEL_SERVICE_NAME,
// OTEL_BSP_SCHEDULE_DELAY, OTEL_METRIC_EXPORT_INTERVAL, OTEL_TRACES_SAMPLER, ...). It must start
// before the app is created, so the app's `telemetry: true` finds the SDK's providers. Without the
// variable nothing is loaded.
import type { NodeSDK } from "@opentelemetry/sdk-node";

/** What the sample needs from a started SDK: the app option, and a shutdown that flushes. */
export interface SampleTelemetry {
  readonly telemetry: true;
  shutdown(): Promise<void>;
}

const PROTOCOLS = ["http/protobuf", "http/json"] as const;

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): SampleTelemetry | undefined {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const protocol = (env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf").trim();
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw new RangeError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json for this sample, got ${JSON.stringify(protocol)}`);
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when telemetry is asked for */
  const { NodeSDK: Sdk } = require("@opentelemetry/sdk-node") as typeof import("@opentelemetry/sdk-node");
  const { PeriodicExportingMetricReader } = require("@opentelemetry/sdk-metrics") as typeof import("@opentelemetry/sdk-metrics");
  const json = protocol === "http/json";
  const { OTLPTraceExporter } = (
    json ? require("@opentelemetry/exporter-trace-otlp-http") : require("@opentelemetry/exporter-trace-otlp-proto")
  ) as typeof import("@opentelemetry/exporter-trace-otlp-http");
  const { OTLPMetricExporter } = (
    json ? require("@opentelemetry/exporter-metrics-otlp-http") : require("@opentelemetry/exporter-metrics-otlp-proto")
  ) as typeof import("@opentelemetry/exporter-metrics-otlp-http");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL || 60_000);
  // The exporters read the endpoint (adding /v1/traces, /v1/metrics) and headers; the batch
  // processor reads OTEL_BSP_*; the SDK reads the sampler and the service name.
  const sdk: NodeSDK = new Sdk({
    ...(!env.OTEL_SERVICE_NAME && { serviceName }),
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: interval,
        exportTimeoutMillis: Math.min(interval, 30_000),
      }),
    ],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return { telemetry: true, shutdown: () => sdk.shutdown() };
}
