import type { Context, Histogram, Link, Span, SpanContext, Tracer, TracerProvider, MeterProvider } from "@opentelemetry/api";
import type { ComponentDefinition } from "../../features/component-definition";
import type { InboundRequest } from "../../protocol/inbound-request";
import { isPlainObject } from "../../protocol/plain-object";
import type { JsonObject } from "../../protocol/wire-types";
import type { RequestTelemetry } from "../request-telemetry";
import { loadOpenTelemetry } from "./load-opentelemetry";
import {
  DURATION_BUCKETS,
  errorAttributes,
  metricAttributes,
  requestAttributes,
  resultAttributes,
  type Attributes,
} from "./mcp-attributes";
import { INSTRUMENTATION_SCOPE, type TelemetryOptions } from "./telemetry-options";

type Api = ReturnType<typeof loadOpenTelemetry>;

/** W3C `traceparent`: version 00, 32 hex trace id, 16 hex parent id, 2 hex flags (https://www.w3.org/TR/trace-context/). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** One request's span and the attributes gathered for it while it runs. */
interface Open {
  readonly span: Span;
  readonly attributes: Attributes;
}

/** The `_meta` of a request's params, read as a carrier of trace context. */
const META_GETTER = {
  keys: (carrier: JsonObject) => Object.keys(carrier),
  get: (carrier: JsonObject, key: string) => (typeof carrier[key] === "string" ? (carrier[key] as string) : undefined),
};

/**
 * Spans and the duration histogram of the OpenTelemetry semantic conventions for MCP: one SERVER
 * span per request, named `{mcp.method.name} {target}`, parented on the trace context in
 * `params._meta` (`traceparent`/`tracestate`, through the configured propagator, else read as
 * W3C), linked to the ambient span (the HTTP server's, if instrumented); the rounds of a carried
 * flow and the tasks under `roundtrip_mcp.*`.
 */
export class OpenTelemetryRequests implements RequestTelemetry {
  private readonly api: Api;
  private readonly tracer: Tracer;
  private readonly duration: Histogram;
  private readonly recordContent: boolean;
  private readonly open = new WeakMap<InboundRequest, Open>();

  constructor(options: TelemetryOptions = {}) {
    const api = (this.api = loadOpenTelemetry());
    const tracers = (options.tracerProvider as TracerProvider | undefined) ?? api.trace.getTracerProvider();
    const meters = (options.meterProvider as MeterProvider | undefined) ?? api.metrics.getMeterProvider();
    this.tracer = tracers.getTracer(INSTRUMENTATION_SCOPE);
    this.duration = meters.getMeter(INSTRUMENTATION_SCOPE).createHistogram("mcp.server.operation.duration", {
      description: "MCP request duration as observed on the receiver from the time it was received until the result is sent",
      unit: "s",
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
    this.recordContent = options.recordContent === true;
  }

  handle(request: InboundRequest, answer: (traceId: string | undefined) => Promise<JsonObject>): Promise<JsonObject> {
    const api = this.api;
    const started = performance.now();
    const { name, attributes } = requestAttributes(request, this.recordContent);
    const ambient = api.context.active();
    const parent = this.parentOf(request, ambient);
    const ambientSpan = parent === ambient ? undefined : api.trace.getSpanContext(ambient);
    const links: Link[] = ambientSpan !== undefined && api.isSpanContextValid(ambientSpan) ? [{ context: ambientSpan }] : [];
    const span = this.tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes, links }, parent);
    const open: Open = { span, attributes };
    this.open.set(request, open);
    const made = span.spanContext();
    const traceId = api.isSpanContextValid(made) ? made.traceId : undefined;
    const ended = (error: unknown, result: JsonObject | undefined) => {
      if (result !== undefined) resultAttributes(request, result, attributes, this.recordContent);
      const message = result === undefined ? errorAttributes(request, error, attributes) : undefined;
      span.setAttributes(attributes);
      if (attributes["error.type"] !== undefined)
        span.setStatus({ code: api.SpanStatusCode.ERROR, ...(message !== undefined && { message }) });
      span.end();
      this.duration.record((performance.now() - started) / 1000, metricAttributes(attributes));
    };
    return api.context
      .with(api.trace.setSpan(parent, span), () => answer(traceId))
      .then(
        (result) => (ended(undefined, result), result),
        (error: unknown) => {
          ended(error, undefined);
          throw error;
        },
      );
  }

  round(request: InboundRequest, round: number, opened: boolean): void {
    const open = this.open.get(request);
    if (open === undefined) return;
    open.attributes["roundtrip_mcp.round"] = round;
    open.attributes["roundtrip_mcp.state"] = opened ? "opened" : "none";
  }

  task<T>(request: InboundRequest | undefined, def: ComponentDefinition, taskId: string, run: () => Promise<T>): Promise<T> {
    const api = this.api;
    const creator = request === undefined ? undefined : this.open.get(request)?.span.spanContext();
    const attributes: Attributes = {
      "gen_ai.tool.name": def.ref.name,
      "gen_ai.operation.name": "execute_tool",
      "roundtrip_mcp.task.id": taskId,
      "roundtrip_mcp.task.recovered": creator === undefined,
    };
    // Its own trace: a task outlives the request that created it, which it links to.
    const span = this.tracer.startSpan(
      `task ${def.ref.name}`,
      { kind: api.SpanKind.INTERNAL, attributes, links: creator === undefined ? [] : [{ context: creator }], root: true },
      api.ROOT_CONTEXT,
    );
    return api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, span), run).then(
      (value) => {
        if (isPlainObject(value) && value.isError === true) {
          span.setAttribute("error.type", "tool_error");
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        span.end();
        return value;
      },
      (error: unknown) => {
        span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      },
    );
  }

  /** The remote parent from `params._meta`, or the ambient context when the request carries none. */
  private parentOf(request: InboundRequest, ambient: Context): Context {
    const meta = request.params._meta;
    if (!isPlainObject(meta) || typeof meta.traceparent !== "string") return ambient;
    const api = this.api;
    const extracted = api.propagation.extract(api.ROOT_CONTEXT, meta as JsonObject, META_GETTER);
    if (api.trace.getSpanContext(extracted) !== undefined) return extracted;
    // No propagator registered (a provider given in the options): read the W3C keys ourselves.
    const remote = w3cSpanContext(api, meta.traceparent, meta.tracestate);
    return remote === undefined ? ambient : api.trace.setSpanContext(api.ROOT_CONTEXT, remote);
  }
}

function w3cSpanContext(api: Api, traceparent: string, tracestate: unknown): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null || match[1] === "ff") return undefined;
  // Groups 1 to 4 are not optional: all set whenever the pattern matched.
  const context: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: parseInt(match[4]!, 16) & 1,
    isRemote: true,
    ...(typeof tracestate === "string" && tracestate.length > 0 && { traceState: api.createTraceState(tracestate) }),
  };
  return api.isSpanContextValid(context) ? context : undefined;
}
