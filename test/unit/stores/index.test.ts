// Pins that a custom task store is written against roundtrip-mcp/stores alone, without a cast:
// - every type of the TaskStore contract (records, leases, inputs, listeners, limits) and its
//   errors are exported by that entry point; this file imports nothing else from the package
// - a store that wraps another (here an audit trail over MemoryTaskStore) satisfies the contract:
//   a task created through it is claimed, asked for input, answered, completed and read back,
//   its watcher sees every change, and each call is recorded in order
// - the errors a store throws are the entry point's own classes (a lease of a finished task)
import {
  MemoryTaskStore,
  TaskFinishedError,
  TaskStoreError,
  type ClaimedTask,
  type CreateTaskInput,
  type JsonObject,
  type JsonValue,
  type LeaseRef,
  type ProgressUpdate,
  type TaskError,
  type TaskLease,
  type TaskLimits,
  type TaskListener,
  type TaskRecord,
  type TaskStore,
  type TaskWatch,
} from "roundtrip-mcp/stores";

/** A store that records the name of every call, then hands it to the store it wraps. */
class AuditedStore implements TaskStore {
  readonly calls: string[] = [];
  constructor(private readonly inner: TaskStore) {}

  get kind(): TaskStore["kind"] {
    return this.inner.kind;
  }
  get limits(): TaskLimits {
    return this.inner.limits;
  }
  private note(call: string): void {
    this.calls.push(call);
  }
  create(input: CreateTaskInput): Promise<ClaimedTask> {
    this.note("create");
    return this.inner.create(input);
  }
  get(taskId: string, principal: string | null): Promise<TaskRecord | undefined> {
    this.note("get");
    return this.inner.get(taskId, principal);
  }
  recordAnswers(taskId: string, principal: string | null, responses: JsonObject): Promise<TaskRecord | undefined> {
    this.note("recordAnswers");
    return this.inner.recordAnswers(taskId, principal, responses);
  }
  cancel(taskId: string, principal: string | null): Promise<TaskRecord | undefined> {
    this.note("cancel");
    return this.inner.cancel(taskId, principal);
  }
  reportProgress(taskId: string, lease: LeaseRef, update: ProgressUpdate): Promise<TaskRecord> {
    this.note("reportProgress");
    return this.inner.reportProgress(taskId, lease, update);
  }
  requestInput(taskId: string, lease: LeaseRef, requests: JsonObject, options?: { statusMessage?: string }): Promise<TaskRecord> {
    this.note("requestInput");
    return this.inner.requestInput(taskId, lease, requests, options);
  }
  complete(taskId: string, lease: LeaseRef, result: JsonValue): Promise<TaskRecord> {
    this.note("complete");
    return this.inner.complete(taskId, lease, result);
  }
  fail(taskId: string, lease: LeaseRef, error: TaskError): Promise<TaskRecord> {
    this.note("fail");
    return this.inner.fail(taskId, lease, error);
  }
  claim(taskId: string, owner: string, leaseMs: number): Promise<ClaimedTask | undefined> {
    this.note("claim");
    return this.inner.claim(taskId, owner, leaseMs);
  }
  claimNext(owner: string, leaseMs: number): Promise<ClaimedTask | undefined> {
    this.note("claimNext");
    return this.inner.claimNext(owner, leaseMs);
  }
  renewLease(taskId: string, lease: LeaseRef, leaseMs: number): Promise<TaskLease> {
    this.note("renewLease");
    return this.inner.renewLease(taskId, lease, leaseMs);
  }
  releaseLease(taskId: string, lease: LeaseRef): Promise<boolean> {
    this.note("releaseLease");
    return this.inner.releaseLease(taskId, lease);
  }
  failAbandoned(options?: { limit?: number }): Promise<string[]> {
    this.note("failAbandoned");
    return this.inner.failAbandoned(options);
  }
  reapExpired(options?: { limit?: number }): Promise<number> {
    this.note("reapExpired");
    return this.inner.reapExpired(options);
  }
  watch(taskId: string, principal: string | null, listener: TaskListener): Promise<TaskWatch> {
    this.note("watch");
    return this.inner.watch(taskId, principal, listener);
  }
  ping(): Promise<void> {
    this.note("ping");
    return this.inner.ping();
  }
  close(): Promise<void> {
    this.note("close");
    return this.inner.close();
  }
}

describe("a custom store written against roundtrip-mcp/stores", () => {
  it("keeps the contract through its own class, and records every call", async () => {
    const store = new AuditedStore(new MemoryTaskStore());
    const seen: (string | undefined)[] = [];
    const created = await store.create({
      principal: "ada",
      toolName: "export",
      input: { rows: 3 },
      ttlMs: 60_000,
      lease: { owner: "worker-1", durationMs: 30_000 },
    });
    const watch = await store.watch(created.task.id, "ada", (task) => seen.push(task?.status));
    const asked = await store.requestInput(created.task.id, created.lease, { confirm: { method: "elicitation/create" } });
    expect(asked.status).toBe("input_required");
    await store.recordAnswers(created.task.id, "ada", { confirm: { action: "accept" } });
    const done = await store.complete(created.task.id, created.lease, { exported: 3 });
    expect(done.status).toBe("completed");
    expect((await store.get(created.task.id, "ada"))?.result).toEqual({ exported: 3 });
    const stale = await store.renewLease(created.task.id, created.lease, 1_000).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(TaskStoreError);
    expect(stale).toBeInstanceOf(TaskFinishedError);
    watch.close();
    await store.close();
    expect(seen).toContain("completed");
    expect(store.calls).toEqual(["create", "watch", "requestInput", "recordAnswers", "complete", "get", "renewLease", "close"]);
  });
});
