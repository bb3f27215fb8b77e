// Pins that a feature with its own options plugs in through McpAppOptions.features alone, the way
// the tasks extension will (a small stand-in for it is written below), in-process and over HTTP:
// - its capabilities are advertised under capabilities.extensions on 2026-07-28;
// - its method (tasks/get, which the SDK knows only as a 2025 method) is served on the modern era
//   with the JSON Schema the feature gives, so malformed params are -32602 before it runs;
// - its execution strategy takes over a tool it claims only after the @Elicit rounds resolved:
//   the first round still asks, the answered round returns the strategy's own result
//   (resultType "task") without running shaping on it, and the tool's result is later shaped
//   exactly as an inline call would shape it (Invocation.finish);
// - a client that did not declare the extension gets the tool run inline, as a complete result;
// - tools it does not claim are untouched, and the feature's close() runs when the app closes;
// - the feature is written against roundtrip-mcp/features alone, without a cast.
import "reflect-metadata";
import { IsString } from "class-validator";
import { createHttpTestClient, createTestClient, accept, MemoryLogger, type TestClient } from "roundtrip-mcp/testing";
import { Elicit, McpApp, Tool } from "roundtrip-mcp";
import type {
  AnsweringMethod,
  CompiledFeature,
  ComponentDefinition,
  Era,
  ExecutionOutcome,
  ExecutionStrategy,
  FeatureModule,
  InboundRequest,
  Invocation,
  JsonObject,
} from "roundtrip-mcp/features";

const EXTENSION = "io.modelcontextprotocol/tasks";

class NameForm {
  @IsString() name!: string;
}

class Greeter {
  @Tool({ description: "Greets, possibly later", _meta: { deferrable: true } })
  deferred_greet(@Elicit("who", NameForm, { message: "Who is it?" }) who: NameForm) {
    return `Hello, ${who.name}`;
  }

  @Tool({ description: "Greets now" })
  greet() {
    return "Hello";
  }
}

/** A stand-in for the tasks extension: options in its closure, one method, one strategy; typed from roundtrip-mcp/features alone. */
function deferredJobs(options: { prefix: string }): FeatureModule & { closed: boolean } {
  const module = {
    name: EXTENSION,
    closed: false,
    compile: (): CompiledFeature => {
      const jobs = new Map<string, Promise<JsonObject>>();
      const getTask: AnsweringMethod = {
        method: "tasks/get",
        inputRequired: false,
        nameParam: "taskId",
        eras: ["modern"],
        paramsSchema: { type: "object", properties: { taskId: { type: "string" } }, required: ["taskId"] },
        async handle(request: InboundRequest) {
          const job = jobs.get(String(request.params.taskId));
          return {
            resultType: "complete",
            taskId: request.params.taskId,
            status: job ? "completed" : "unknown",
            ...(job && { result: await job }),
          };
        },
      };
      const execution: ExecutionStrategy = {
        claims: (component: ComponentDefinition) => {
          const meta = component.descriptor._meta;
          return typeof meta === "object" && meta !== null && "deferrable" in meta && meta.deferrable === true;
        },
        async execute(invocation: Invocation): Promise<ExecutionOutcome> {
          if (invocation.ctx.clientCapabilities.extensions?.[EXTENSION] === undefined)
            return { kind: "inline", value: await invocation.run() };
          const taskId = `${options.prefix}${jobs.size + 1}`;
          jobs.set(
            taskId,
            invocation.run().then((value) => invocation.finish(value)),
          );
          return { kind: "handover", result: { resultType: "task", taskId, status: "working" } };
        },
      };
      return {
        capabilities: (era: Era) => (era === "modern" ? { extensions: { [EXTENSION]: {} } } : {}),
        methods: [getTask],
        execution,
        close: async () => void (module.closed = true),
      };
    },
  };
  return module;
}

const DECLARING = { elicitation: {}, extensions: { [EXTENSION]: {} } };

describe.each([
  ["in-process", (app: McpApp, capabilities: JsonObject) => createTestClient(app, { capabilities })],
  ["http", (app: McpApp, capabilities: JsonObject) => createHttpTestClient(app, { capabilities })],
])("a feature module plugged in through McpAppOptions.features (%s)", (_boundary, connect) => {
  let app: McpApp;
  let jobs: ReturnType<typeof deferredJobs>;
  let client: TestClient;
  const taskHeaders = (taskId: string) => ({ "mcp-name": taskId });

  beforeEach(async () => {
    jobs = deferredJobs({ prefix: "job-" });
    app = McpApp.create({
      components: [Greeter],
      state: { secret: "feature-module-secret-0123456789abcdef" },
      logger: new MemoryLogger(),
      features: [jobs],
    });
    client = await connect(app, DECLARING);
  });
  afterEach(async () => {
    await client.close();
    await app.close();
  });

  it("advertises the extension on 2026-07-28", async () => {
    const discovered = await client.raw("server/discover", {});
    expect((discovered.result as { capabilities: JsonObject }).capabilities).toMatchObject({
      tools: { listChanged: true },
      extensions: { [EXTENSION]: {} },
    });
  });

  it("takes over the call after the @Elicit round, and shapes the result like an inline call", async () => {
    const round1 = await client.callTool("deferred_greet");
    expect(round1.status).toBe("input_required");
    expect(round1.keys).toEqual(["who"]);
    const round2 = await round1.answer({ who: accept({ name: "Ada" }) });
    // Sent as the strategy made it: no shaping (no structuredContent), no round state.
    expect(round2.response.result).toMatchObject({ resultType: "task", taskId: "job-1", status: "working" });
    expect(round2.response.result).not.toHaveProperty("structuredContent");
    expect(round2.response.result).not.toHaveProperty("requestState");
    const got = await client.raw("tasks/get", { taskId: "job-1" }, { headers: taskHeaders("job-1") });
    expect(got.result).toMatchObject({
      resultType: "complete",
      status: "completed",
      result: { resultType: "complete", content: [{ type: "text", text: "Hello, Ada" }] },
    });
  });

  it("runs inline for a client that did not declare the extension", async () => {
    const plain = await connect(app, { elicitation: {} });
    const done = await (await plain.callTool("deferred_greet")).answer({ who: accept({ name: "Bo" }) });
    expect(done.response.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Bo" }] });
    await plain.close();
  });

  it("validates the method's params with the feature's schema", async () => {
    const bad = await client.raw("tasks/get", { taskId: 7 }, { headers: taskHeaders("7") });
    expect(bad.error).toMatchObject({ code: -32602 });
  });

  it("leaves the tools it does not claim alone, and is closed with the app", async () => {
    expect((await client.callTool("greet")).response.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello" }],
    });
    await app.close();
    expect(jobs.closed).toBe(true);
  });
});
