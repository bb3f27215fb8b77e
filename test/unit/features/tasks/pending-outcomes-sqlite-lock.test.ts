// Pins, on a real SQLite file, that a result survives a write lock another connection holds for
// longer than the store waits (SQLITE_BUSY, again and again): the outcome is kept in memory, tried
// again past the point where the old code gave up (4 tries), and lands once the lock is released;
// the task then reads completed with the method's result, never failed.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { ComponentDefinition } from "../../../../src/features/component-definition";
import type { Invocation } from "../../../../src/features/component-runner";
import { PendingOutcomes } from "../../../../src/features/tasks/pending-outcomes";
import type { TaskContext } from "../../../../src/features/tasks/task-context";
import { TaskRun } from "../../../../src/features/tasks/task-run";
import type { TaskTool } from "../../../../src/features/tasks/task-tool";
import { SqliteTaskStore, type TaskRecord } from "../../../../src/stores";
import { MemoryLogger } from "../../../../src/testing/index";

const CAPABILITIES = { extensions: { "io.modelcontextprotocol/tasks": {} } };
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-outcome-lock-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

it("keeps a result through a write lock held past many busy timeouts, and writes it once the lock is gone", async () => {
  const file = path.join(folder, "tasks.sqlite");
  const store = new SqliteTaskStore({ file, busyTimeoutMs: 10 });
  const logger = new MemoryLogger();
  const tool: TaskTool = {
    component: {} as ComponentDefinition,
    name: "job",
    support: "optional",
    ttlMs: 60_000,
    pollIntervalMs: 100,
    retryPolicy: "fail",
    maxAttempts: 1,
  };
  const claimed = await store.create({
    principal: "ada",
    toolName: "job",
    input: {},
    ttlMs: 60_000,
    lease: { owner: "here", durationMs: 60_000 },
  });
  const kept = new PendingOutcomes({ maxOutcomes: 10, maxBytes: 1_000_000 }, logger, { firstMs: 5, maxMs: 20 });
  const run = new TaskRun(store, claimed, tool, { arguments: {}, answers: {}, capabilities: CAPABILITIES }, 60_000, logger, kept);
  await run.begin();

  let busy = 0;
  let reached!: () => void;
  const manyRefusals = new Promise<void>((resolve) => (reached = resolve));
  const real = store.complete.bind(store);
  jest.spyOn(store, "complete").mockImplementation(async (...args) => {
    try {
      return await real(...args);
    } catch (error) {
      if ((error as { code?: string }).code === "store-unavailable" && ++busy === 8) reached();
      throw error;
    }
  });

  const other = new Database(file);
  other.exec("BEGIN IMMEDIATE");
  const invocation: Invocation = {
    component: {} as ComponentDefinition,
    ctx: {} as TaskContext,
    clientCapabilities: CAPABILITIES,
    recorded: { arguments: {}, answers: {} },
    run: async () => "worth keeping",
    finish: async (v) => ({ resultType: "complete", content: [{ type: "text", text: String(v) }] }),
  };
  try {
    await run.execute(invocation);
    await manyRefusals;
    expect((await store.get(claimed.task.id, "ada"))!.status).toBe("working");
  } finally {
    other.exec("COMMIT");
    other.close();
  }
  const done = await new Promise<TaskRecord>((resolve) => {
    const watching = store.watch(
      claimed.task.id,
      "ada",
      (task) => task?.status !== "working" && task && void watching.then((w) => (w.close(), resolve(task))),
    );
  });
  expect(done).toMatchObject({ status: "completed", result: { content: [{ text: "worth keeping" }] } });
  expect(busy).toBeGreaterThanOrEqual(8);
  run.close();
  await kept.close();
  await store.close();
});
