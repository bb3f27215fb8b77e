// The two workflows the tasks demo drives, every step checked: a report built in steps (progress
// polled, the question answered through tasks/update, the result read from tasks/get) and a report
// cancelled mid-way (the task settles cancelled and stays so). Expected values are written out
// literally, so the check does not borrow the sample's own constants.
import type { JsonObject } from "roundtrip-mcp";
import type { TestClient } from "roundtrip-mcp/testing";

/** What one workflow did, step by step, for the transcript; `failure` names the first deviation. */
export interface WorkflowRun {
  id: string;
  lines: string[];
  polls: number;
  ms: number;
  failure?: string;
}

class Deviation extends Error {}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Deviation(what);
}

const show = (value: unknown): string => JSON.stringify(value);

/** Drives one task with raw requests, as a 2026-07-28 client that declared the tasks extension. */
class TaskDriver {
  readonly lines: string[] = [];
  polls = 0;
  private lastSeen = "";

  constructor(private readonly client: TestClient) {}

  async request(method: string, params: JsonObject): Promise<JsonObject> {
    const response = await this.client.raw(method, params);
    if (response.error) throw new Deviation(`${method} answered error ${show(response.error)}`);
    const { _meta, ...result } = response.result as JsonObject;
    return result;
  }

  async create(name: string, args: JsonObject): Promise<JsonObject> {
    this.lines.push(`tools/call ${name} ${show(args)}`);
    const created = await this.request("tools/call", { name, arguments: args });
    expectThat(created.resultType === "task", `tools/call answered resultType ${show(created.resultType)}, not "task"`);
    expectThat(typeof created.taskId === "string" && created.status === "working", `the new task is ${show(created)}`);
    this.lines.push(
      `  created   task ${String(created.taskId)}: ${String(created.status)}, ttlMs ${String(created.ttlMs)}, pollIntervalMs ${String(created.pollIntervalMs)}`,
    );
    return created;
  }

  /** Polls tasks/get (honouring pollIntervalMs) until `done` holds; prints each change once. */
  async pollUntil(task: JsonObject, done: (got: JsonObject) => boolean, limit = 100): Promise<JsonObject> {
    for (let i = 0; i < limit; i++) {
      const got = await this.request("tasks/get", { taskId: task.taskId as string });
      this.polls++;
      const seen = `${String(got.status)} ${got.statusMessage === undefined ? "" : show(got.statusMessage)}`.trim();
      if (seen !== this.lastSeen) this.lines.push(`  polled    ${(this.lastSeen = seen)}`);
      if (done(got)) return got;
      await new Promise((resolve) => setTimeout(resolve, Number(got.pollIntervalMs ?? 1000)));
    }
    throw new Deviation(`the task did not get there in ${limit} polls (last: ${this.lastSeen})`);
  }
}

async function timed(id: string, client: TestClient, steps: (driver: TaskDriver) => Promise<void>): Promise<WorkflowRun> {
  const began = performance.now();
  const driver = new TaskDriver(client);
  let failure: string | undefined;
  try {
    await steps(driver);
  } catch (error) {
    failure = error instanceof Deviation ? error.message : `unexpected: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    id,
    lines: driver.lines,
    polls: driver.polls,
    ms: Math.round(performance.now() - began),
    ...(failure !== undefined && { failure }),
  };
}

/** A three-section report: progress, the appendix question answered "yes", the result. */
export function reportWorkflow(client: TestClient): Promise<WorkflowRun> {
  return timed("report", client, async (driver) => {
    const task = await driver.create("build_report", { topic: "Quarterly sales", sections: 3 });
    const messages: string[] = [];
    const asking = await driver.pollUntil(task, (got) => {
      if (typeof got.statusMessage === "string") messages.push(got.statusMessage);
      return got.status !== "working";
    });
    expectThat(
      messages.some((m) => /^Writing section [1-3] of 3$/.test(m)),
      `no progress seen while working: ${show(messages)}`,
    );
    expectThat(asking.status === "input_required", `expected input_required after the sections, got ${show(asking.status)}`);
    expectThat(asking.statusMessage === "Waiting for your answer about the appendix", `status message ${show(asking.statusMessage)}`);
    const asked = (asking.inputRequests as Record<string, { method: string; params: JsonObject }> | undefined)?.appendix;
    expectThat(asked?.method === "elicitation/create" && asked.params.mode === "form", `inputRequests ${show(asking.inputRequests)}`);
    expectThat(
      asked!.params.message === "The report on Quarterly sales is drafted. Include the appendix?",
      `question ${show(asked!.params.message)}`,
    );
    driver.lines.push(`  asked     appendix [form] ${show(asked!.params.message)}`);
    const ack = await driver.request("tasks/update", {
      taskId: task.taskId as string,
      inputResponses: { appendix: { action: "accept", content: { appendix: true } } },
    });
    expectThat(show(ack) === show({ resultType: "complete" }), `tasks/update acknowledged with ${show(ack)}`);
    driver.lines.push("  answered  tasks/update appendix: accept {appendix: true}");
    const done = await driver.pollUntil(task, (got) => got.status !== "working" && got.status !== "input_required");
    expectThat(done.status === "completed", `the report ended ${show(done.status)}`);
    const report = (done.result as JsonObject).structuredContent as JsonObject;
    expectThat(
      report.topic === "Quarterly sales" && report.appendix === true && (report.sections as unknown[]).length === 3,
      `result ${show(report)}`,
    );
    driver.lines.push(`  result    ${show(report)}`);
  });
}

/** A long report cancelled while its sections are written: it settles cancelled and stays so. */
export function cancelWorkflow(client: TestClient): Promise<WorkflowRun> {
  return timed("cancel", client, async (driver) => {
    const task = await driver.create("build_report", { topic: "Annual review", sections: 12 });
    const writing = await driver.pollUntil(
      task,
      (got) => got.status !== "working" || /^Writing section \d+ of 12$/.test(String(got.statusMessage)),
    );
    expectThat(writing.status === "working", `the report was ${show(writing.status)} before its sections were written`);
    const ack = await driver.request("tasks/cancel", { taskId: task.taskId as string });
    expectThat(show(ack) === show({ resultType: "complete" }), `tasks/cancel acknowledged with ${show(ack)}`);
    driver.lines.push("  cancelled tasks/cancel acknowledged");
    const ended = await driver.pollUntil(task, (got) => got.status !== "working");
    expectThat(ended.status === "cancelled" && !("result" in ended), `after the cancel the task is ${show(ended)}`);
    const later = await driver.request("tasks/get", { taskId: task.taskId as string });
    expectThat(later.status === "cancelled", `a later tasks/get reads ${show(later.status)}: a late result must never land`);
  });
}
