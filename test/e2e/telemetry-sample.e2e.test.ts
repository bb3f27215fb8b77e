// Pins the samples' OpenTelemetry on the compiled build, as real child processes exporting to a
// fake OTLP collector (node:http on 127.0.0.1 port 0 taking /v1/traces and /v1/metrics in
// http/json), configured only by the standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY,
// OTEL_METRIC_EXPORT_INTERVAL, OTEL_TRACES_SAMPLER):
// - the preferences sample (`npm start`): a plain request (tools/list, parented on the traceparent
//   in its params._meta through the SDK's propagator) and the @Elicit round trip
//   of choose_preferences (three rounds: asked, state opened twice) and a forged state (refused)
//   arrive as SERVER spans with the documented attributes, under the service name, with the
//   mcp.server.operation.duration histogram (unit s, the conventions' buckets);
// - the tasks sample (`npm run start:tasks`; the preferences sample has no task tool): the
//   build_report task's attempt arrives as a span linked to the tools/call span that created it;
// - the preferences sample on stdio (`npm run start:stdio`): spans with network.transport pipe;
// - without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported (the collector hears nothing);
// - OTEL_TRACES_SAMPLER=always_off: no spans, the histogram still.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as readline from "node:readline";
import { meta, rpc } from "../support/raw-http";

const ROOT = path.resolve(__dirname, "../..");
const PREFERENCES = path.join(ROOT, "dist/sample/preferences/main-http.js");
const TASKS = path.join(ROOT, "dist/sample/tasks/main-http.js");
const FORM = { elicitation: {} };
const DECLARING = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; arrayValue?: { values?: OtlpValue[] } };
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
}

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  return value;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/** A fake OTLP/HTTP collector: keeps every JSON body by path, tells waiters on each one. */
class Collector {
  readonly bodies: { path: string; body: Record<string, unknown> }[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const known = req.url === "/v1/traces" || req.url === "/v1/metrics";
      if (known) this.bodies.push({ path: req.url!, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(known ? 200 : 404, { "content-type": "application/json" }).end("{}");
      for (const wake of [...this.waiters]) wake();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  spans(): (OtlpSpan & { service: unknown })[] {
    return this.bodies
      .filter((b) => b.path === "/v1/traces")
      .flatMap((b) =>
        (b.body.resourceSpans as { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[]).flatMap((r) =>
          r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, service: attributesOf(r.resource.attributes)["service.name"] }))),
        ),
      );
  }

  histogram(): { unit: string; points: { attributes: Record<string, unknown>; explicitBounds: number[]; count: number }[] } | undefined {
    const metrics = this.bodies
      .filter((b) => b.path === "/v1/metrics")
      .flatMap((b) =>
        (b.body.resourceMetrics as { scopeMetrics: { metrics: Record<string, unknown>[] }[] }[]).flatMap((r) => r.scopeMetrics),
      )
      .flatMap((s) => s.metrics)
      .filter((m) => m.name === "mcp.server.operation.duration");
    const last = metrics.at(-1) as
      | { unit: string; histogram: { dataPoints: { attributes: OtlpAttribute[]; explicitBounds: number[]; count: string | number }[] } }
      | undefined;
    if (last === undefined) return undefined;
    return {
      unit: last.unit,
      points: last.histogram.dataPoints.map((p) => ({
        attributes: attributesOf(p.attributes),
        explicitBounds: p.explicitBounds,
        count: Number(p.count),
      })),
    };
  }

  /** Resolves once `done` holds for what arrived (checked on every export), or rejects after 15 s. */
  until<T>(done: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = done();
        if (value === undefined) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the collector never received ${what}; it got ${JSON.stringify(this.spans().map((s) => s.name))}`));
      }, 15_000);
      this.waiters.add(check);
      check();
    });
  }
}

interface Sample {
  readonly url: string;
  readonly exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

async function start(file: string, env: Record<string, string>): Promise<Sample> {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (\`npm test\` does)`);
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("OTEL_")));
  const child = spawn(process.execPath, [file], { cwd: ROOT, env: { ...base, PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const found = /listening on (\S+)/.exec(line);
      if (found) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`${file} exited (${code}) before listening: ${stderr}`)));
  });
  return { url, exited, stop: () => (child.kill("SIGTERM"), exited) };
}

function otelEnv(endpoint: string, service: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: service,
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_METRIC_EXPORT_INTERVAL: "200",
    OTEL_TRACES_SAMPLER: "always_on",
    ...extra,
  };
}

const HTTP = { "mcp.protocol.version": "2026-07-28", "network.transport": "tcp", "network.protocol.name": "http" };
const SERVER_KIND = 2; // OTLP SPAN_KIND_SERVER
const INTERNAL_KIND = 1;

describe("the samples' OpenTelemetry, through a fake OTLP collector", () => {
  let collector: Collector;
  let endpoint: string;
  beforeEach(async () => {
    collector = new Collector();
    endpoint = await collector.start();
  });
  afterEach(() => collector.close());

  it("exports the preferences sample's spans for a plain request and an @Elicit round trip, and the histogram", async () => {
    const sample = await start(PREFERENCES, otelEnv(endpoint, "prefs-under-test"));
    // The SDK's W3C propagator reads the trace context the client put in params._meta.
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    await rpc(sample.url, "tools/list", { _meta: meta({}, { traceparent }) }, { id: 1 });
    const call = (id: number, extra: Record<string, unknown>) =>
      rpc(sample.url, "tools/call", { name: "choose_preferences", arguments: {}, _meta: meta(FORM), ...extra }, { id });
    const first = (await call(2, {})).body as { result: { requestState: string } };
    const second = (
      await call(3, {
        inputResponses: { color: { action: "accept", content: { color: "blue" } } },
        requestState: first.result.requestState,
      })
    ).body as { result: { requestState: string } };
    const third = await call(4, {
      inputResponses: { style: { action: "accept", content: { style: "navy" } } },
      requestState: second.result.requestState,
    });
    expect(third.body).toMatchObject({ result: { structuredContent: { color: "blue", style: "navy" } } });
    await call(5, { inputResponses: { style: { action: "accept", content: { style: "navy" } } }, requestState: "forged" });

    const spans = await collector.until(() => {
      const got = collector.spans();
      return got.length >= 5 ? got : undefined;
    }, "five spans");
    const byId = (id: string) => spans.find((s) => attributesOf(s.attributes)["jsonrpc.request.id"] === id)!;
    expect(spans.every((s) => s.kind === SERVER_KIND && s.service === "prefs-under-test")).toBe(true);
    expect(byId("1").name).toBe("tools/list");
    expect([byId("1").traceId, byId("1").parentSpanId]).toEqual(["4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"]);
    expect(byId("2").parentSpanId).toBeUndefined();
    expect(attributesOf(byId("1").attributes)).toEqual({
      "mcp.method.name": "tools/list",
      "jsonrpc.request.id": "1",
      ...HTTP,
      "roundtrip_mcp.result_type": "complete",
    });
    const tool = {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "choose_preferences",
      "gen_ai.operation.name": "execute_tool",
      ...HTTP,
    };
    expect(byId("2").name).toBe("tools/call choose_preferences");
    expect(attributesOf(byId("2").attributes)).toEqual({
      ...tool,
      "jsonrpc.request.id": "2",
      "roundtrip_mcp.result_type": "input_required",
      "roundtrip_mcp.round": 1,
      "roundtrip_mcp.state": "none",
      "roundtrip_mcp.questions": ["color"],
    });
    expect(attributesOf(byId("3").attributes)).toEqual({
      ...tool,
      "jsonrpc.request.id": "3",
      "roundtrip_mcp.answered": ["color"],
      "roundtrip_mcp.result_type": "input_required",
      "roundtrip_mcp.round": 2,
      "roundtrip_mcp.state": "opened",
      "roundtrip_mcp.questions": ["style"],
    });
    expect(attributesOf(byId("4").attributes)).toEqual({
      ...tool,
      "jsonrpc.request.id": "4",
      "roundtrip_mcp.answered": ["style"],
      "roundtrip_mcp.result_type": "complete",
      "roundtrip_mcp.round": 3,
      "roundtrip_mcp.state": "opened",
    });
    expect(attributesOf(byId("5").attributes)).toEqual({
      ...tool,
      "jsonrpc.request.id": "5",
      "roundtrip_mcp.answered": ["style"],
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
      "roundtrip_mcp.state": "refused",
    });

    const histogram = await collector.until(() => {
      const h = collector.histogram();
      const calls = h?.points.filter(
        (p) => p.attributes["gen_ai.tool.name"] === "choose_preferences" && p.attributes["error.type"] === undefined,
      );
      return calls?.[0]?.count === 3 ? h : undefined;
    }, "the duration of the three rounds");
    expect(histogram.unit).toBe("s");
    expect(histogram.points.every((p) => JSON.stringify(p.explicitBounds) === JSON.stringify(BUCKETS))).toBe(true);
    expect(histogram.points.map((p) => p.attributes).find((a) => a["mcp.method.name"] === "tools/list")).toEqual({
      "mcp.method.name": "tools/list",
      ...HTTP,
    });
    expect(await sample.stop()).toBe(0);
  });

  it("exports the tasks sample's task attempt as a span linked to the request that created it", async () => {
    const sample = await start(TASKS, { ...otelEnv(endpoint, "tasks-under-test"), TASK_STORE: "memory:", REPORT_STEP_MS: "1" });
    const created = (
      await rpc(
        sample.url,
        "tools/call",
        { name: "build_report", arguments: { topic: "otel", sections: 1 }, _meta: meta(DECLARING) },
        { id: 7 },
      )
    ).body as { result: { resultType: string; taskId: string } };
    expect(created.result.resultType).toBe("task");
    const taskId = created.result.taskId;
    // The task asks about the appendix: answer once it does (tasks/get shows the question).
    for (let polls = 0; ; polls++) {
      const got = (await rpc(sample.url, "tasks/get", { taskId, _meta: meta(DECLARING) })).body as { result: { status: string } };
      if (got.result.status === "input_required") break;
      if (polls > 500) throw new Error(`the task never asked: ${JSON.stringify(got)}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await rpc(sample.url, "tasks/update", {
      taskId,
      inputResponses: { appendix: { action: "accept", content: { appendix: false } } },
      _meta: meta(DECLARING),
    });
    const attempt = await collector.until(() => collector.spans().find((s) => s.name === "task build_report"), "the task's span");
    const request = collector.spans().find((s) => attributesOf(s.attributes)["jsonrpc.request.id"] === "7")!;
    expect(request.name).toBe("tools/call build_report");
    expect(attributesOf(request.attributes)).toMatchObject({ "roundtrip_mcp.result_type": "task", "roundtrip_mcp.task.id": taskId });
    expect(attempt.kind).toBe(INTERNAL_KIND);
    expect(attributesOf(attempt.attributes)).toEqual({
      "gen_ai.tool.name": "build_report",
      "gen_ai.operation.name": "execute_tool",
      "roundtrip_mcp.task.id": taskId,
      "roundtrip_mcp.task.recovered": false,
    });
    expect(attempt.links).toEqual([expect.objectContaining({ traceId: request.traceId, spanId: request.spanId })]);
    expect(attempt.service).toBe("tasks-under-test");
    expect(await sample.stop()).toBe(0);
  });

  it("exports nothing without OTEL_EXPORTER_OTLP_ENDPOINT, and no spans when the sampler is always_off", async () => {
    const off = await start(PREFERENCES, {});
    await rpc(off.url, "tools/list", { _meta: meta() }, { id: 1 });
    expect(await off.stop()).toBe(0);
    expect(collector.bodies).toEqual([]);

    const unsampled = await start(PREFERENCES, otelEnv(endpoint, "prefs-unsampled", { OTEL_TRACES_SAMPLER: "always_off" }));
    await rpc(unsampled.url, "tools/list", { _meta: meta() }, { id: 2 });
    await collector.until(() => collector.histogram(), "the histogram");
    expect(await unsampled.stop()).toBe(0);
    expect(collector.spans()).toEqual([]);
  });
});

describe("the preferences sample on stdio, through a fake OTLP collector", () => {
  it("exports spans with network.transport pipe, for the request that pins the connection and for the next", async () => {
    const collector = new Collector();
    const endpoint = await collector.start();
    const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("OTEL_")));
    const child = spawn(process.execPath, [path.join(ROOT, "dist/sample/preferences/main-stdio.js")], {
      cwd: ROOT,
      env: { ...base, ...otelEnv(endpoint, "prefs-stdio") },
      stdio: ["pipe", "pipe", "pipe"],
    });
    started.push(child);
    try {
      const answers = readline.createInterface({ input: child.stdout! });
      const replies: Record<string, unknown>[] = [];
      const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: meta() } });
      // The second request is sent once the first (which pins the connection to 2026-07-28) is answered.
      const answered = new Promise<void>((resolve) =>
        answers.on("line", (line) => {
          replies.push(JSON.parse(line));
          if (replies.length === 1) child.stdin!.write(`${JSON.stringify(list(2))}\n`);
          if (replies.length === 2) resolve();
        }),
      );
      child.stdin!.write(`${JSON.stringify(list(1))}\n`);
      await answered;
      const spans = await collector.until(() => {
        const got = collector.spans();
        return got.length >= 2 ? got : undefined;
      }, "two spans");
      expect(replies.map((r) => r.id)).toEqual([1, 2]);
      const expected = (id: string) => ({
        "mcp.method.name": "tools/list",
        "jsonrpc.request.id": id,
        "mcp.protocol.version": "2026-07-28",
        "network.transport": "pipe",
        "roundtrip_mcp.result_type": "complete",
      });
      expect(spans.map((s) => [s.name, attributesOf(s.attributes)])).toEqual([
        ["tools/list", expected("1")],
        ["tools/list", expected("2")],
      ]);
      child.kill("SIGTERM");
      expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(0);
    } finally {
      await collector.close();
    }
  });
});
