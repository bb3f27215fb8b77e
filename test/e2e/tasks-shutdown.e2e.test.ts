// Pins what app.close() does to tasks over a real HTTP listener on 127.0.0.1, on the memory store
// (another store user claims through the same store object, as a second instance would):
// - a task-creating tools/call in flight when the close begins (its store write still pending)
//   is answered whole with its CreateTaskResult, and the task it created has its lease released
//   by the close: another instance claims it at once, not after the 30 s lease;
// - a task already running when the close begins is handed over the same way.
import "reflect-metadata";
import { Ctx, McpApp, Tool, tasks, type TaskContext } from "../../src/index";
import { MemoryTaskStore, type CreateTaskInput, type TaskStore } from "../../src/stores/index";
import { MemoryLogger } from "../../src/testing/index";
import { meta, rpc } from "../support/raw-http";

const DECLARING = { extensions: { "io.modelcontextprotocol/tasks": {} } };

class LongJobs {
  @Tool({ description: "Runs until its task is stopped", task: { support: "required", retryPolicy: "rerun" } })
  async long_job(@Ctx() ctx: TaskContext) {
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    return "stopped";
  }
}

/** A memory store whose `create` waits for the test to let it write, and says when it was asked. */
function gatedStore(): { store: TaskStore; asked: Promise<void>; proceed: () => void } {
  const inner = new MemoryTaskStore();
  let proceed!: () => void;
  let asked!: () => void;
  const gate = new Promise<void>((resolve) => (proceed = resolve));
  const askedPromise = new Promise<void>((resolve) => (asked = resolve));
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === "create") {
        return async (input: CreateTaskInput) => {
          asked();
          await gate;
          return target.create(input);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store, asked: askedPromise, proceed };
}

function appWith(store: TaskStore): McpApp {
  return McpApp.create({
    components: [LongJobs],
    state: { secret: "tasks-shutdown-secret".padEnd(40, "x") },
    logger: new MemoryLogger(),
    features: [tasks({ store })],
  });
}

describe("app.close() with tasks", () => {
  it("answers a task-creating call in flight, then releases the new task's lease", async () => {
    const { store, asked, proceed } = gatedStore();
    const app = appWith(store);
    const listener = await app.listen({ port: 0 });
    const call = rpc(listener.url, "tools/call", { name: "long_job", arguments: {}, _meta: meta(DECLARING) });
    await asked;
    const closing = app.close();
    proceed();
    const answer = await call;
    expect(answer.status).toBe(200);
    const taskId = (answer.body!.result as { taskId: string }).taskId;
    expect(typeof taskId).toBe("string");
    await closing;
    const claimed = await store.claim(taskId, "the-next-instance", 60_000);
    expect(claimed?.lease.owner).toBe("the-next-instance");
    await store.close();
  });

  it("hands a running task over", async () => {
    const store = new MemoryTaskStore();
    const app = appWith(store);
    const listener = await app.listen({ port: 0 });
    const answer = await rpc(listener.url, "tools/call", { name: "long_job", arguments: {}, _meta: meta(DECLARING) });
    const taskId = (answer.body!.result as { taskId: string }).taskId;
    await app.close();
    const claimed = await store.claim(taskId, "the-next-instance", 60_000);
    expect(claimed?.task).toMatchObject({ id: taskId, status: "working" });
    await store.close();
  });
});
