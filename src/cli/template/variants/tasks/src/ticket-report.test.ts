// ticket_report as a task and as an ordinary call, with roundtrip-mcp's testing kit.
import "reflect-metadata";
import type { JsonObject } from "roundtrip-mcp";
import { accept, createTestClient, MemoryLogger, type TestClient } from "roundtrip-mcp/testing";
import { createApp } from "./app";

const TASKS = { "io.modelcontextprotocol/tasks": {} };

/** Polls tasks/get until the task is no longer `working`. */
async function settled(client: TestClient, taskId: string): Promise<JsonObject> {
  for (;;) {
    const task = (await client.raw("tasks/get", { taskId })).result as JsonObject;
    if (task.status !== "working") return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("ticket_report", () => {
  let client: TestClient;
  beforeEach(async () => {
    client = await createTestClient(createApp({ logger: new MemoryLogger() }), { capabilities: { elicitation: {}, extensions: TASKS } });
    const round2 = await (
      await client.callTool("open_ticket", { title: "Cannot log in" })
    ).answer({ priority: accept({ priority: "urgent" }) });
    await round2.answer({ confirm: accept({ confirm: true }) });
  });
  afterEach(async () => {
    await client.close();
    await client.app.close();
  });

  it("runs as a task for a client that declares the tasks extension", async () => {
    const created = await client.callTool("ticket_report");
    const { resultType, taskId } = created.response.result as JsonObject;
    expect(resultType).toBe("task");
    const task = await settled(client, taskId as string);
    expect(task.status).toBe("completed");
    expect((task.result as JsonObject).structuredContent).toEqual({ total: 1, byPriority: { low: 0, normal: 0, urgent: 1 } });
  });

  it("answers in the call for a client that does not", async () => {
    const flow = await client.withCapabilities({}).callTool("ticket_report");
    expect(flow.status).toBe("complete");
    expect(flow.text).toBe("1 open tickets, 1 urgent");
  });
});
