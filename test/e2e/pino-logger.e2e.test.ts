// Pins pinoLogger (a real pino writing JSON lines to a stream) as the app logger:
// - every entry made while a request is handled, by a component (before and after an await) and
//   by the framework (a tool's unexpected error), carries requestId (the JSON-RPC id), principal
//   and traceId: the traceparent's trace without telemetry, the request span's trace with it
// - entries outside any request carry none of the three; a field of the entry's own cannot hide them
// - the level: entries under it are not written; a logger of your own gets a child at that level
import "reflect-metadata";
import { PassThrough } from "node:stream";
import pino from "pino";
import { inject, injectable } from "tsyringe";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { APP_LOGGER, McpApp, Tool, pinoLogger, type AppLogger, type McpAppOptions } from "../../src/index";
import { createTestClient, type TestClient } from "../../src/testing/index";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

@injectable()
class LoggingTools {
  constructor(@inject(APP_LOGGER) private readonly logger: AppLogger) {}

  @Tool({ description: "Logs before and after an await" })
  async chatty() {
    this.logger.info("before the await", { step: 1, principal: "spoofed" });
    await new Promise((resolve) => setImmediate(resolve));
    this.logger.debug("after the await", { step: 2 });
    return "done";
  }

  @Tool({ description: "Fails unexpectedly: the framework logs it" })
  broken(): string {
    throw new Error("disk on fire");
  }
}

function lines(stream: PassThrough): Record<string, unknown>[] {
  const text = (stream.read() as Buffer | null)?.toString("utf8") ?? "";
  return text
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
}

async function clientFor(options: Partial<McpAppOptions>): Promise<{ app: McpApp; client: TestClient }> {
  const app = McpApp.create({ components: [LoggingTools], state: { secret: "pino-test-secret-0123456789abcdef-0123456789" }, ...options });
  return { app, client: (await createTestClient(app)).as("alice") };
}

describe("pinoLogger", () => {
  it("writes requestId, traceId and principal on every entry of a request, the framework's too", async () => {
    const stream = new PassThrough();
    const { app, client } = await clientFor({ logger: pinoLogger({ destination: stream, level: "debug" }) });
    try {
      lines(stream);
      const call = await client.raw("tools/call", { name: "chatty", arguments: {}, _meta: { ...client.meta(), traceparent: TRACEPARENT } });
      const id = call.id;
      const entries = lines(stream);
      expect(entries.map((e) => [e.msg, e.level, e.step, e.requestId, e.traceId, e.principal])).toEqual([
        ["before the await", 30, 1, id, TRACE_ID, "alice"],
        ["after the await", 20, 2, id, TRACE_ID, "alice"],
      ]);
      const failed = await client.raw("tools/call", { name: "broken", arguments: {} });
      const framework = lines(stream);
      expect(framework.length).toBeGreaterThan(0);
      for (const entry of framework) {
        expect(entry).toMatchObject({ requestId: failed.id, principal: "alice" });
        expect(entry).not.toHaveProperty("traceId");
      }
    } finally {
      await client.close();
      await app.close();
    }
  });

  it("takes the trace id of the request's span when telemetry is on", async () => {
    const stream = new PassThrough();
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    const { app, client } = await clientFor({ logger: pinoLogger({ destination: stream }), telemetry: { tracerProvider } });
    try {
      lines(stream);
      await client.raw("tools/call", { name: "chatty", arguments: {} });
      const [span] = spans.getFinishedSpans();
      expect(lines(stream).map((e) => e.traceId)).toEqual([span!.spanContext().traceId]);
    } finally {
      await client.close();
      await app.close();
    }
  });

  it("writes no request fields outside a request, and nothing under its level", () => {
    const stream = new PassThrough();
    const logger = pinoLogger({ destination: stream, level: "warn" });
    logger.info("not written");
    logger.warn("written", { principal: "own field" });
    expect(lines(stream).map((e) => [e.msg, e.principal, "requestId" in e, "traceId" in e])).toEqual([
      ["written", "own field", false, false],
    ]);
  });

  it("logs through a child of a pino of your own, at the level asked", () => {
    const stream = new PassThrough();
    const own = pino({ level: "info", base: { service: "mine" } }, stream);
    const logger = pinoLogger({ logger: own, level: "error" });
    logger.warn("not written");
    logger.error("written");
    logger.withScope!({ requestId: 9, traceId: undefined, principal: null }, () => logger.error("scoped"));
    expect(lines(stream).map((e) => [e.msg, e.service, e.requestId, e.principal])).toEqual([
      ["written", "mine", undefined, undefined],
      ["scoped", "mine", 9, null],
    ]);
  });
});
