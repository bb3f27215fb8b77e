import "reflect-metadata";
import { accept, createTestClient, type TestClient } from "roundtrip-mcp/testing";
import { McpApp, tasks, type JsonObject } from "roundtrip-mcp";
import { OrderExports, uploads } from "./export-tool";

// Declares the tasks extension on every request, and form elicitation for the questions.
const CAPABILITIES = { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } };

/** Polls tasks/get until the task is no longer `working`. */
async function settled(client: TestClient, taskId: string): Promise<JsonObject> {
  for (;;) {
    const task = (await client.raw("tasks/get", { taskId })).result as JsonObject;
    if (task.status !== "working") return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("export_orders", () => {
  let app: McpApp;
  let client: TestClient;
  beforeEach(async () => {
    app = McpApp.create({ components: [OrderExports], state: { ephemeral: true }, features: [tasks({ store: "memory:" })] });
    client = await createTestClient(app, { capabilities: CAPABILITIES });
  });
  afterEach(async () => {
    await client.close();
    await app.close();
  });

  it("asks the format, then exports as a task", async () => {
    const asked = await client.callTool("export_orders", { orders: 2500 });
    expect(asked.keys).toEqual(["format"]);
    const created = await asked.answer({ format: accept({ format: "csv" }) });
    const { resultType, taskId } = created.response.result as JsonObject;
    expect(resultType).toBe("task");
    const task = await settled(client, taskId as string);
    expect(task.status).toBe("completed");
    expect((task.result as JsonObject).structuredContent).toEqual({ file: expect.stringMatching(/^orders-.+\.csv$/), rows: 2500 });
    expect(uploads.size).toBeGreaterThan(0);
  });

  it("asks through the task before a large export", async () => {
    const created = await (await client.callTool("export_orders", { orders: 50_000 })).answer({ format: accept({ format: "json" }) });
    const { taskId } = created.response.result as JsonObject;
    const waiting = await settled(client, taskId as string);
    expect(waiting.status).toBe("input_required");
    expect(Object.keys(waiting.inputRequests as JsonObject)).toEqual(["large_export"]);
    await client.raw("tasks/update", { taskId, inputResponses: { large_export: accept({ proceed: false }) } });
    let done = await settled(client, taskId as string);
    while (done.status === "input_required") done = await settled(client, taskId as string);
    expect(done.result).toMatchObject({ isError: true, content: [{ text: "Export not confirmed" }] });
  });
});
