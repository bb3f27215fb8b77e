// Pins the OpenTelemetry output of McpApp({ telemetry }) over a real HTTP listener, read with the
// SDK's in-memory exporters, with the fast lane on and off (both give the same spans):
// - one SERVER span per request named `{mcp.method.name} {target}`, with the exact attribute set
//   of the MCP semantic conventions for a plain call, a prompt, a resource read (URI never in the
//   name), a JSON-RPC error (error.type and rpc.response.status_code = the code, status ERROR with
//   its message) and an isError result (error.type tool_error)
// - an @Elicit round trip: round 1 asks (round, questions, state none), round 2 carries the state
//   (opened, the answered keys, never the answers), a forged state (refused, -32602)
// - a task: the tools/call span names the task id, the attempt is a span of its own in its own
//   trace, linked to that request's span
// - W3C trace context in params._meta: the span is the child of `traceparent`, keeps `tracestate`
//   (such requests take the SDK path: the lane takes the others, counted)
// - the mcp.server.operation.duration histogram: unit s, the conventions' buckets, the low-
//   cardinality attributes only
// - recordContent: arguments, results and answers only when opted in
// - a task handed over on shutdown and recovered by another app: its attempt there is a span with
//   roundtrip_mcp.task.recovered true and no link (no request of that app created it)
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { HttpListener, McpApp, TelemetryOptions } from "../../src/index";
import { meta, rpc } from "../support/raw-http";
import { createTelemetryApp } from "./fixtures/telemetry-app";
import { createTaskApp } from "./fixtures/task-app";
import { MemoryTaskStore } from "../../src/stores/index";
import { fastLaneCountsOf } from "../../src/server/fast-lane-counts";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const FORM = { elicitation: {} };
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

/** Resolves when a span of that name ends (the task attempt ends after its request answered). */
class EndWatcher implements SpanProcessor {
  private readonly waiters: { name: string; resolve: (span: ReadableSpan) => void }[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    for (const w of this.waiters.filter((w) => w.name === span.name)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(span);
    }
  }
  ended(name: string): Promise<ReadableSpan> {
    return new Promise((resolve) => this.waiters.push({ name, resolve }));
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

interface Setup {
  app: McpApp;
  listener: HttpListener;
  spans: InMemorySpanExporter;
  metrics: InMemoryMetricExporter;
  reader: PeriodicExportingMetricReader;
  watcher: EndWatcher;
}

async function setUp(fastLane: boolean, extra: Partial<TelemetryOptions> = {}): Promise<Setup> {
  const spans = new InMemorySpanExporter();
  const watcher = new EndWatcher();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans), watcher] });
  const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const app = createTelemetryApp({ telemetry: { tracerProvider, meterProvider, ...extra }, fastLane });
  const listener = await app.listen({ port: 0 });
  return { app, listener, spans, metrics, reader, watcher };
}

/** The one span a request made: name, kind and attributes. */
function only(setup: Setup): ReadableSpan {
  const finished = setup.spans.getFinishedSpans();
  if (finished.length !== 1) throw new Error(`expected one span, got ${finished.map((s) => s.name).join(", ")}`);
  setup.spans.reset();
  return finished[0]!; // length checked above
}

const HTTP = { "mcp.protocol.version": "2026-07-28", "network.transport": "tcp", "network.protocol.name": "http" };

describe.each([
  ["on", true],
  ["off", false],
])("telemetry over HTTP, fast lane %s", (_lane, fastLane) => {
  let setup: Setup;
  let url: string;
  const call = (id: number, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, caps = {}) =>
    rpc(url, "tools/call", { name, arguments: args, _meta: meta(caps), ...extra }, { id });

  beforeAll(async () => {
    setup = await setUp(fastLane);
    url = setup.listener.url;
  });
  afterAll(async () => {
    await setup.app.close();
  });
  afterEach(() => setup.spans.reset());

  it("makes one SERVER span for a plain call, with the conventions' attributes exactly", async () => {
    const taken = fastLaneCountsOf(setup.app).taken;
    expect((await call(11, "echo", { n: 3 })).body).toMatchObject({ id: 11, result: { content: [{ type: "text", text: "echo 3" }] } });
    const span = only(setup);
    expect(span.name).toBe("tools/call echo");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "11",
      ...HTTP,
      "roundtrip_mcp.result_type": "complete",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.parentSpanContext).toBeUndefined();
    expect(fastLaneCountsOf(setup.app).taken).toBe(fastLane ? taken + 1 : taken);
  });

  it("names prompts by their name and never puts a resource URI in the span name", async () => {
    await rpc(url, "prompts/get", { name: "greet", _meta: meta() }, { id: 12 });
    const prompt = only(setup);
    expect(prompt.name).toBe("prompts/get greet");
    expect(prompt.attributes).toEqual({
      "mcp.method.name": "prompts/get",
      "gen_ai.prompt.name": "greet",
      "jsonrpc.request.id": "12",
      ...HTTP,
      "roundtrip_mcp.result_type": "complete",
    });
    await rpc(url, "resources/read", { uri: "memo://today", _meta: meta() }, { id: "r-13" });
    const read = only(setup);
    expect(read.name).toBe("resources/read");
    expect(read.attributes).toEqual({
      "mcp.method.name": "resources/read",
      "mcp.resource.uri": "memo://today",
      "jsonrpc.request.id": "r-13",
      ...HTTP,
      "roundtrip_mcp.result_type": "complete",
    });
  });

  it("records a JSON-RPC error as error.type and rpc.response.status_code, status ERROR with its message", async () => {
    const answer = await call(14, "no_such_tool", {});
    const error = (answer.body as { error: { code: number; message: string } }).error;
    expect(error.code).toBe(-32602);
    const span = only(setup);
    expect(span.name).toBe("tools/call no_such_tool");
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "no_such_tool",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "14",
      ...HTTP,
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
  });

  it("records an isError result as error.type tool_error", async () => {
    expect((await call(15, "explode", {})).body).toMatchObject({ result: { isError: true } });
    const span = only(setup);
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "explode",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "15",
      ...HTTP,
      "roundtrip_mcp.result_type": "complete",
      "error.type": "tool_error",
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("records the rounds of an @Elicit flow: asked, carried state opened, forged state refused", async () => {
    const first = (await call(16, "book", {}, {}, FORM)).body as { result: { requestState: string } };
    expect(only(setup).attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "book",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "16",
      ...HTTP,
      "roundtrip_mcp.result_type": "input_required",
      "roundtrip_mcp.round": 1,
      "roundtrip_mcp.state": "none",
      "roundtrip_mcp.questions": ["seats"],
    });
    const answers = { seats: { action: "accept", content: { count: 2 } } };
    const second = await call(17, "book", {}, { inputResponses: answers, requestState: first.result.requestState }, FORM);
    expect(second.body).toMatchObject({ result: { content: [{ type: "text", text: "booked 2" }] } });
    expect(only(setup).attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "book",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "17",
      ...HTTP,
      "roundtrip_mcp.answered": ["seats"],
      "roundtrip_mcp.result_type": "complete",
      "roundtrip_mcp.round": 2,
      "roundtrip_mcp.state": "opened",
    });
    const forged = await call(18, "book", {}, { inputResponses: answers, requestState: `${first.result.requestState}x` }, FORM);
    expect(forged.body).toMatchObject({ error: { code: -32602, message: "Invalid or expired request state" } });
    const refused = only(setup);
    expect(refused.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "book",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "18",
      ...HTTP,
      "roundtrip_mcp.answered": ["seats"],
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
      "roundtrip_mcp.state": "refused",
    });
  });

  it("runs a task's attempt as a span of its own trace, linked to the request that created it", async () => {
    const ended = setup.watcher.ended("task tally");
    const created = (await call(19, "tally", {}, {}, TASKS)).body as { result: { resultType: string; taskId: string } };
    expect(created.result.resultType).toBe("task");
    const attempt = await ended;
    const request = setup.spans.getFinishedSpans().find((s) => s.name === "tools/call tally")!;
    expect(request.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "tally",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "19",
      ...HTTP,
      "roundtrip_mcp.result_type": "task",
      "roundtrip_mcp.task.id": created.result.taskId,
    });
    expect(attempt.kind).toBe(SpanKind.INTERNAL);
    expect(attempt.attributes).toEqual({
      "gen_ai.tool.name": "tally",
      "gen_ai.operation.name": "execute_tool",
      "roundtrip_mcp.task.id": created.result.taskId,
      "roundtrip_mcp.task.recovered": false,
    });
    expect(attempt.links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);
    expect(attempt.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(attempt.parentSpanContext).toBeUndefined();
  });

  it("parents the span on the traceparent in params._meta and keeps the tracestate", async () => {
    const taken = fastLaneCountsOf(setup.app).taken;
    const traced = meta({}, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: "rojo=00f067aa0ba902b7" });
    await rpc(url, "tools/call", { name: "echo", arguments: { n: 1 }, _meta: traced }, { id: 20 });
    const span = only(setup);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_ID, isRemote: true });
    expect(span.parentSpanContext?.traceState?.serialize()).toBe("rojo=00f067aa0ba902b7");
    expect(span.attributes["jsonrpc.request.id"]).toBe("20");
    // The lane leaves tracing keys to the SDK path; the span is the same there.
    expect(fastLaneCountsOf(setup.app).taken).toBe(taken);
  });

  it("records mcp.server.operation.duration in seconds with the conventions' buckets and low-cardinality attributes", async () => {
    await rpc(url, "resources/read", { uri: "memo://today", _meta: meta() }, { id: 21 });
    await setup.reader.forceFlush();
    const exported = setup.metrics.getMetrics().at(-1)!;
    const metric = exported.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === "mcp.server.operation.duration")!;
    expect(metric.descriptor.unit).toBe("s");
    const points = metric.dataPoints as {
      attributes: Record<string, unknown>;
      value: { count: number; buckets: { boundaries: number[] } };
    }[];
    expect(points[0]!.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    const read = points.find((p) => p.attributes["mcp.method.name"] === "resources/read")!;
    expect(read.attributes).toEqual({ "mcp.method.name": "resources/read", ...HTTP });
    const failed = points.find((p) => p.attributes["error.type"] === "-32602" && p.attributes["gen_ai.tool.name"] === "no_such_tool")!;
    expect(failed.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "no_such_tool",
      "gen_ai.operation.name": "execute_tool",
      ...HTTP,
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
    const echoes = points.find((p) => p.attributes["gen_ai.tool.name"] === "echo" && p.attributes["error.type"] === undefined)!;
    expect(echoes.value.count).toBe(2);
  });
});

describe("telemetry with recordContent", () => {
  it("records the arguments, the result and the answers only when opted in", async () => {
    const setup = await setUp(true, { recordContent: true });
    try {
      await rpc(setup.listener.url, "tools/call", { name: "echo", arguments: { n: 5 }, _meta: meta() }, { id: 1 });
      const span = only(setup);
      expect(span.attributes["gen_ai.tool.call.arguments"]).toBe('{"n":5}');
      expect(JSON.parse(span.attributes["gen_ai.tool.call.result"] as string)).toMatchObject({ content: [{ text: "echo 5" }] });
      const answers = { seats: { action: "accept", content: { count: 4 } } };
      await rpc(setup.listener.url, "tools/call", { name: "book", arguments: {}, inputResponses: answers, _meta: meta(FORM) }, { id: 2 });
      expect(JSON.parse(only(setup).attributes["roundtrip_mcp.answers"] as string)).toEqual(answers);
    } finally {
      await setup.app.close();
    }
  });
});

describe("telemetry of a recovered task", () => {
  it("makes the recovering app's attempt a span marked recovered, with no link", async () => {
    const store = new MemoryTaskStore();
    const first = createTaskApp({}, { store, recoveryIntervalMs: 20 });
    const listener = await first.listen({ port: 0 });
    const created = (
      await rpc(listener.url, "tools/call", { name: "resumable", arguments: { holdFirstAttempt: true }, _meta: meta(TASKS) }, { id: 1 })
    ).body as { result: { taskId: string } };
    // Closing hands the running task over (its lease released): the second app recovers it.
    await first.close();
    const spans = new InMemorySpanExporter();
    const watcher = new EndWatcher();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans), watcher] });
    const ended = watcher.ended("task resumable");
    const second = createTaskApp({ telemetry: { tracerProvider } }, { store, recoveryIntervalMs: 20 });
    try {
      const attempt = await ended;
      expect(attempt.attributes).toEqual({
        "gen_ai.tool.name": "resumable",
        "gen_ai.operation.name": "execute_tool",
        "roundtrip_mcp.task.id": created.result.taskId,
        "roundtrip_mcp.task.recovered": true,
      });
      expect(attempt.links).toEqual([]);
      expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
    } finally {
      await second.close();
    }
  });
});
