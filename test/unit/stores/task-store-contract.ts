/*
 * The contract every TaskStore keeps, as one jest suite run against each store (memory and
 * SQLite in `npm test`, PostgreSQL in `npm run test:postgres`). It pins:
 * - create: a `working` task born claimed (attempt 1, generation 1), 128-bit base64url ids,
 *   expiresAt = createdAt + ttlMs (or null), JSON input stored as JSON writes it, fresh copies;
 *   programming mistakes (bad ttl, lease, policy, non-JSON input) are TypeError/RangeError;
 * - creation keys: a live task's key makes no second task (TaskExistsError naming it, as it is now),
 *   per principal and anonymous scope, for the task's whole life (finished too), freed on expiry,
 *   found before any limit refuses; racing creates with one key from two handles make one task;
 * - scoping: another principal's task, an unknown one and an expired one are all undefined;
 *   the anonymous scope (null) is a scope of its own;
 * - limits: tasks per principal, active tasks per principal, input bytes, answer bytes, each a
 *   TaskLimitError naming the limit; expired tasks do not count; other principals unaffected; the
 *   anonymous scope has limits of its own (its message says the scope is shared); no finished task
 *   (completed, failed, worker-lost, cancelled) counts against an active limit;
 * - worker writes: progress and status message, input requests (keys unique for the task's
 *   life, also across answered keys), complete, fail; terminal is final for every write
 *   (TaskFinishedError) and a late result never resurrects a cancelled task;
 * - the status message follows the status: failed and cancelled drop the progress message (completed
 *   keeps the worker's last), asking sets the questions' message or none, a re-run of a working task
 *   starts without the lost attempt's message (an input_required one keeps its questions');
 * - answers: partial answers, unknown and already-answered keys ignored (no change at all),
 *   back to `working` with the message cleared when nothing is outstanding;
 * - cancel: immediate and terminal, a no-op on a terminal task, scoped;
 * - fencing: a wrong token or generation writes nothing (StaleLeaseError); renew and release;
 *   lease bookkeeping does not move lastUpdatedAt or revision;
 * - recovery: claim and claimNext take lapsed `rerun` tasks (next attempt, same idempotency key,
 *   answers kept), never `fail` ones, held ones, exhausted ones or terminal ones; failAbandoned
 *   ends the rest `failed` (-32603, reason worker-lost), in batches; nothing stays `working`;
 * - ping: resolves on an open store, with tasks in it or none, and changes nothing (no task
 *   appears, no revision moves);
 * - expiry: readable until createdAt + ttlMs, unknown from then on for every operation;
 *   reapExpired deletes in batches;
 * - watch: the current state first, then each later one, from this handle or another handle
 *   on the same database (cancel, answers, completion), undefined for an invisible task or a
 *   reaped one, nothing after close;
 * - concurrency: two handles racing for one task: exactly one claim wins; racing claimNext
 *   never hands a task out twice; racing creates at the active limit never exceed it;
 * - a model-based property (fast-check): random sequences of asks, answers, cancels, outcomes,
 *   takeovers and stale writes agree with a small model of the rules.
 */
import fc from "fast-check";
import {
  DEFAULT_TASK_LIMITS,
  InputKeyReusedError,
  StaleLeaseError,
  TaskFinishedError,
  TaskExistsError,
  TaskLimitError,
  TaskNotFoundError,
  type ClaimedTask,
  type CreateTaskInput,
  type JsonValue,
  type LeaseRef,
  type StoreLogger,
  type TaskLimits,
  type TaskRecord,
  type TaskStore,
} from "../../../src/stores";

/** One fresh database, seen through one or more store handles. */
export interface StoreUnderTest {
  readonly store: TaskStore;
  /** Another handle on the same database (another connection or pool); memory: the same store. */
  second(): Promise<TaskStore>;
  /** Moves the stores' clock forward. */
  advance(ms: number): void;
  /** Closes every handle and removes the database. */
  dispose(): Promise<void>;
}

/** What a test may ask of a fresh database's stores. */
export interface StoreSettings {
  readonly limits?: Partial<TaskLimits>;
  readonly logger?: StoreLogger;
}

export interface ContractOptions {
  /** Opens a fresh, empty database. */
  open(settings?: StoreSettings): Promise<StoreUnderTest>;
  /** fast-check runs of the model-based property. */
  propertyRuns: number;
}

const LEASE_MS = 30_000;
const TTL_MS = 3_600_000;
const P = "alice";

/** A create request with sensible defaults. */
export function taskInput(overrides: Partial<CreateTaskInput> = {}): CreateTaskInput {
  return {
    principal: P,
    toolName: "slow_compute",
    input: { seconds: 2 },
    ttlMs: TTL_MS,
    lease: { owner: "worker-a", durationMs: LEASE_MS },
    ...overrides,
  };
}

/** Rejects with a message if `promise` does not settle in time (a hang guard, not a timing check). */
function guard<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    }),
  ]);
}

/** Records what a watcher is told and resolves waits on it. */
class Told {
  readonly states: (TaskRecord | undefined)[] = [];
  private waiters: { test: (s: TaskRecord | undefined) => boolean; resolve: (s: TaskRecord | undefined) => void }[] = [];
  readonly listener = (state: TaskRecord | undefined): void => {
    this.states.push(state);
    this.waiters = this.waiters.filter((w) => !(w.test(state) && (w.resolve(state), true)));
  };
  /** The first state told (now or later) that passes `test`. */
  until(test: (s: TaskRecord | undefined) => boolean, what: string): Promise<TaskRecord | undefined> {
    const seen = this.states.find(test);
    if (seen !== undefined || this.states.some((s) => s === undefined && test(s))) return Promise.resolve(seen);
    return guard(new Promise((resolve) => this.waiters.push({ test, resolve })), what);
  }
}

export function describeTaskStoreContract(name: string, options: ContractOptions): void {
  describe(`TaskStore contract: ${name}`, () => {
    let db: StoreUnderTest;
    let store: TaskStore;
    const opened: StoreUnderTest[] = [];
    let warnings: { message: string; fields?: Record<string, unknown> }[] = [];

    async function open(limits?: Partial<TaskLimits>): Promise<StoreUnderTest> {
      const fresh = await options.open({ limits, logger: { warn: (message, fields) => warnings.push({ message, fields }) } });
      opened.push(fresh);
      return fresh;
    }

    beforeEach(async () => {
      warnings = [];
      db = await open();
      store = db.store;
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((o) => o.dispose()));
    });

    const create = (overrides?: Partial<CreateTaskInput>) => store.create(taskInput(overrides));

    describe("ping", () => {
      it("resolves on an open store and changes nothing", async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        const { task } = await create();
        await expect(store.ping()).resolves.toBeUndefined();
        expect(await store.get(task.id, task.principal)).toEqual(task);
      });
    });

    describe("create and get", () => {
      it("creates a working task born claimed by its creator", async () => {
        const { task, lease } = await create({ pollIntervalMs: 500, statusMessage: "queued" });
        expect(task).toMatchObject({
          principal: P,
          toolName: "slow_compute",
          input: { seconds: 2 },
          status: "working",
          statusMessage: "queued",
          ttlMs: TTL_MS,
          pollIntervalMs: 500,
          inputRequests: {},
          inputResponses: {},
          inputKeys: [],
          retryPolicy: "fail",
          maxAttempts: 1,
          attempt: 1,
          revision: 1,
          lease: { owner: "worker-a", generation: 1, expiresAt: lease.expiresAt },
        });
        expect(task.result).toBeUndefined();
        expect(task.error).toBeUndefined();
        expect(task.lastUpdatedAt).toBe(task.createdAt);
        expect(Date.parse(task.expiresAt!) - Date.parse(task.createdAt)).toBe(TTL_MS);
        expect(Date.parse(lease.expiresAt) - Date.parse(task.createdAt)).toBe(LEASE_MS);
        expect(lease).toMatchObject({ owner: "worker-a", generation: 1 });
        expect(task.lease).not.toHaveProperty("token");
        expect(await store.get(task.id, P)).toEqual(task);
      });

      it("gives unguessable ids (128 random bits, base64url) and distinct idempotency keys and lease tokens", async () => {
        const made = await Promise.all([1, 2, 3, 4].map(() => create()));
        for (const { task, lease } of made) {
          expect(task.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
          expect(task.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
          expect(lease.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
        }
        const all = made.flatMap(({ task, lease }) => [task.id, task.idempotencyKey, lease.token]);
        expect(new Set(all).size).toBe(all.length);
      });

      it("keeps the caller's idempotency key and retry policy", async () => {
        const { task } = await create({ idempotencyKey: "order-42", retryPolicy: "rerun", maxAttempts: 5 });
        expect(task).toMatchObject({ idempotencyKey: "order-42", retryPolicy: "rerun", maxAttempts: 5 });
        expect((await create({ retryPolicy: "rerun" })).task.maxAttempts).toBe(3);
      });

      it("stores input as JSON writes it and returns fresh copies", async () => {
        const { task } = await create({ input: { a: [1, "x", null, { b: true }], dropped: undefined } as unknown as JsonValue });
        expect(task.input).toEqual(JSON.parse(JSON.stringify({ a: [1, "x", null, { b: true }] })));
        (task.input as { a: unknown[] }).a.push("mutated");
        expect((await store.get(task.id, P))!.input).toEqual({ a: [1, "x", null, { b: true }] });
      });

      it("a task with ttlMs null never expires", async () => {
        const { task } = await create({ ttlMs: null });
        expect(task.expiresAt).toBeNull();
        db.advance(9 * 365 * 24 * 3600 * 1000);
        expect(await store.get(task.id, P)).toBeDefined();
      });

      it("refuses programming mistakes with TypeError or RangeError", async () => {
        await expect(create({ ttlMs: 0 })).rejects.toThrow(RangeError);
        await expect(create({ ttlMs: 1.5 })).rejects.toThrow(RangeError);
        await expect(create({ pollIntervalMs: -1 })).rejects.toThrow(RangeError);
        await expect(create({ lease: { owner: "w", durationMs: 0 } })).rejects.toThrow(RangeError);
        await expect(create({ lease: { owner: "", durationMs: 1000 } })).rejects.toThrow(TypeError);
        await expect(create({ retryPolicy: "fail", maxAttempts: 2 })).rejects.toThrow(RangeError);
        await expect(create({ retryPolicy: "rerun", maxAttempts: 101 })).rejects.toThrow(RangeError);
        await expect(create({ toolName: "" })).rejects.toThrow(TypeError);
        await expect(create({ input: 10n as unknown as JsonValue })).rejects.toThrow(TypeError);
        await expect(create({ input: undefined as unknown as JsonValue })).rejects.toThrow(TypeError);
      });
    });

    describe("creation keys", () => {
      it("a second create with a live task's creation key creates nothing and names that task, as it is now", async () => {
        const first = await create({ creationKey: "order-42" });
        expect(first.task.creationKey).toBe("order-42");
        await store.reportProgress(first.task.id, first.lease, { statusMessage: "halfway" });
        const again = create({ creationKey: "order-42", input: { other: true } });
        await expect(again).rejects.toThrow(TaskExistsError);
        const existing = ((await again.catch((e: unknown) => e)) as TaskExistsError).task;
        expect(existing).toMatchObject({ id: first.task.id, statusMessage: "halfway", revision: 2, creationKey: "order-42" });
        expect((await create()).task.creationKey).toBeUndefined();
      });

      it("keys are per principal (the anonymous scope is one of its own), and kept for the task's whole life, finished or not", async () => {
        const alice = await create({ creationKey: "k" });
        const bob = await create({ creationKey: "k", principal: "bob" });
        const anonymous = await create({ creationKey: "k", principal: null });
        expect(new Set([alice.task.id, bob.task.id, anonymous.task.id]).size).toBe(3);
        await expect(create({ creationKey: "k", principal: null })).rejects.toMatchObject({
          code: "task-exists",
          task: { id: anonymous.task.id },
        });
        await store.complete(alice.task.id, alice.lease, { done: true });
        await expect(create({ creationKey: "k" })).rejects.toMatchObject({
          task: { id: alice.task.id, status: "completed", result: { done: true } },
        });
      });

      it("an expired task frees its key, before it is reaped too", async () => {
        const first = await create({ creationKey: "k", ttlMs: 1000 });
        db.advance(1000);
        const second = await create({ creationKey: "k" });
        expect(second.task.id).not.toBe(first.task.id);
        await expect(create({ creationKey: "k" })).rejects.toMatchObject({ task: { id: second.task.id } });
        expect(await store.reapExpired()).toBe(1);
        expect((await store.get(second.task.id, P))!.creationKey).toBe("k");
      });

      it("a retry at a limit still finds its task; a malformed key is a TypeError", async () => {
        const small = (await open({ maxTasksPerPrincipal: 1 })).store;
        const { task } = await small.create(taskInput({ creationKey: "k" }));
        await expect(small.create(taskInput({ creationKey: "k" }))).rejects.toMatchObject({ code: "task-exists", task: { id: task.id } });
        await expect(small.create(taskInput({ creationKey: "other" }))).rejects.toThrow(TaskLimitError);
        for (const creationKey of ["", "x".repeat(257), 7 as unknown as string])
          await expect(create({ creationKey })).rejects.toThrow(TypeError);
        await expect(create({ creationKey: "x".repeat(256) })).resolves.toBeDefined();
      });
    });

    describe("scoping", () => {
      it("another principal's task, an unknown one and an expired one all look the same: undefined", async () => {
        const { task } = await create({ ttlMs: 1000 });
        expect(await store.get(task.id, "mallory")).toBeUndefined();
        expect(await store.get(task.id, null)).toBeUndefined();
        expect(await store.get("AAAAAAAAAAAAAAAAAAAAAA", P)).toBeUndefined();
        expect(await store.recordAnswers(task.id, "mallory", { k: 1 })).toBeUndefined();
        expect(await store.cancel(task.id, "mallory")).toBeUndefined();
        expect((await store.get(task.id, P))!.status).toBe("working");
        db.advance(1000);
        expect(await store.get(task.id, P)).toBeUndefined();
      });

      it("the anonymous scope (null) is its own scope", async () => {
        const { task } = await create({ principal: null });
        expect((await store.get(task.id, null))!.principal).toBeNull();
        expect(await store.get(task.id, "")).toBeUndefined();
        expect(await store.get(task.id, "null")).toBeUndefined();
      });
    });

    describe("limits", () => {
      it("has documented defaults", () => {
        expect(store.limits).toEqual({
          maxTasksPerPrincipal: 10_000,
          maxActiveTasksPerPrincipal: 100,
          maxAnonymousTasks: 50_000,
          maxActiveAnonymousTasks: 500,
          maxInputBytes: 262_144,
        });
      });

      it("gives the anonymous scope limits of its own, apart from any principal's", async () => {
        const small = (
          await open({ maxTasksPerPrincipal: 1, maxActiveTasksPerPrincipal: 1, maxAnonymousTasks: 3, maxActiveAnonymousTasks: 2 })
        ).store;
        const anonymous = taskInput({ principal: null });
        const first = await small.create(anonymous);
        await small.create(anonymous);
        const active = small.create(anonymous);
        await expect(active).rejects.toMatchObject({ code: "task-limit", limit: "activeAnonymousTasks", max: 2 });
        await expect(active).rejects.toThrow("Task limit reached: activeAnonymousTasks (2), shared by every caller without an identity");
        await small.complete(first.task.id, first.lease, {});
        await small.create(anonymous);
        await expect(small.create(anonymous)).rejects.toMatchObject({ limit: "anonymousTasks", max: 3 });
        await small.create(taskInput());
        await expect(small.create(taskInput())).rejects.toMatchObject({ limit: "tasksPerPrincipal", max: 1 });
      });

      it("counts no finished task against the active limits: completed, failed, worker-lost or cancelled", async () => {
        for (const principal of [P, null]) {
          const small = (await open({ maxActiveTasksPerPrincipal: 1, maxActiveAnonymousTasks: 1 })).store;
          const make = () => small.create(taskInput({ principal }));
          const completed = await make();
          await small.complete(completed.task.id, completed.lease, {});
          const failed = await make();
          await small.fail(failed.task.id, failed.lease, { code: -32000, message: "no" });
          const cancelled = await make();
          await small.cancel(cancelled.task.id, principal);
          const lost = await small.create(taskInput({ principal, lease: { owner: "doomed", durationMs: 1 } }));
          await expect(make()).rejects.toThrow(TaskLimitError);
          opened.at(-1)!.advance(1);
          expect(await small.failAbandoned()).toEqual([lost.task.id]);
          await expect(make()).resolves.toBeDefined();
        }
      });

      it("refuses a principal's task beyond maxTasksPerPrincipal; expired ones do not count", async () => {
        const small = (await open({ maxTasksPerPrincipal: 3 })).store;
        const first = await small.create(taskInput({ ttlMs: 1000 }));
        await small.complete(first.task.id, first.lease, {});
        await small.create(taskInput());
        await small.create(taskInput());
        const refused = small.create(taskInput());
        await expect(refused).rejects.toThrow(TaskLimitError);
        await expect(refused).rejects.toMatchObject({ code: "task-limit", limit: "tasksPerPrincipal", max: 3 });
        await small.create(taskInput({ principal: "bob" }));
        await small.create(taskInput({ principal: null }));
        await expect(small.create(taskInput())).rejects.toThrow(TaskLimitError);
      });

      it("expired tasks free their place before they are reaped", async () => {
        const made = await open({ maxTasksPerPrincipal: 1 });
        await made.store.create(taskInput({ ttlMs: 1000 }));
        await expect(made.store.create(taskInput())).rejects.toThrow(TaskLimitError);
        made.advance(1000);
        await expect(made.store.create(taskInput())).resolves.toBeDefined();
      });

      it("refuses an active task beyond maxActiveTasksPerPrincipal; finished ones free a place", async () => {
        const small = (await open({ maxActiveTasksPerPrincipal: 2 })).store;
        const a = await small.create(taskInput());
        const b = await small.create(taskInput());
        await small.requestInput(b.task.id, b.lease, { k: {} });
        await expect(small.create(taskInput())).rejects.toMatchObject({ limit: "activeTasksPerPrincipal", max: 2 });
        await small.cancel(a.task.id, P);
        await expect(small.create(taskInput())).resolves.toBeDefined();
        await expect(small.create(taskInput())).rejects.toThrow(TaskLimitError);
        await expect(small.create(taskInput({ principal: "bob" }))).resolves.toBeDefined();
      });

      it("refuses input over maxInputBytes, counted in UTF-8 bytes of its JSON", async () => {
        const small = (await open({ maxInputBytes: 20 })).store;
        // '"éééééééé"' is 2 quotes + 8 two-byte characters: 18 bytes; "\u00e9" * 9 is 20 bytes.
        await expect(small.create(taskInput({ input: "é".repeat(9) }))).resolves.toBeDefined();
        await expect(small.create(taskInput({ input: "é".repeat(10) }))).rejects.toMatchObject({ limit: "inputBytes", max: 20 });
      });

      it("refuses answers that would make all answers together exceed maxInputBytes, and records none of them", async () => {
        const small = (await open({ maxInputBytes: 40 })).store;
        const { task, lease } = await small.create(taskInput({ input: 1 }));
        await small.requestInput(task.id, lease, { a: {}, b: {} });
        await small.recordAnswers(task.id, P, { a: "x".repeat(10) });
        await expect(small.recordAnswers(task.id, P, { b: "y".repeat(30) })).rejects.toMatchObject({ limit: "inputBytes" });
        const after = (await small.get(task.id, P))!;
        expect(after.inputResponses).toEqual({ a: "x".repeat(10) });
        expect(Object.keys(after.inputRequests)).toEqual(["b"]);
      });

      it("checks limits when the store opens", async () => {
        await expect(options.open({ limits: { maxInputBytes: 0 } })).rejects.toThrow(RangeError);
        await expect(options.open({ limits: { maxInputBytes: 0 } })).rejects.toThrow(
          "limits.maxInputBytes must be a positive integer, got 0",
        );
        await expect(options.open({ limits: { maxInputBytes: "1024" as never } })).rejects.toThrow(
          'limits.maxInputBytes must be a positive integer, got "1024"',
        );
      });

      it("keeps the default of a limit given as undefined", async () => {
        const fresh = await open({ maxInputBytes: undefined, maxActiveTasksPerPrincipal: 7 });
        expect(fresh.store.limits).toEqual({ ...DEFAULT_TASK_LIMITS, maxActiveTasksPerPrincipal: 7 });
      });

      it("refuses a name that is not a limit, listing the limits", async () => {
        await expect(options.open({ limits: { maxTasksPerUser: 5 } as never })).rejects.toThrow(
          new TypeError(
            "limits.maxTasksPerUser is not a task limit; the limits are maxTasksPerPrincipal, maxActiveTasksPerPrincipal, maxAnonymousTasks, maxActiveAnonymousTasks, maxInputBytes",
          ),
        );
      });
    });

    describe("worker writes", () => {
      it("reports progress and a status message, which lastUpdatedAt and revision follow", async () => {
        const { task, lease } = await create();
        db.advance(1500);
        const after = await store.reportProgress(task.id, lease, { statusMessage: "step 1 of 3", progress: { progress: 1, total: 3 } });
        expect(after).toMatchObject({
          status: "working",
          statusMessage: "step 1 of 3",
          progress: { progress: 1, total: 3 },
          revision: 2,
          createdAt: task.createdAt,
        });
        expect(Date.parse(after.lastUpdatedAt) - Date.parse(task.createdAt)).toBe(1500);
        const kept = await store.reportProgress(task.id, lease, { progress: { progress: 2 } });
        expect(kept).toMatchObject({ statusMessage: "step 1 of 3", progress: { progress: 2 } });
        const cleared = await store.reportProgress(task.id, lease, { statusMessage: null, progress: null });
        expect(cleared.statusMessage).toBeUndefined();
        expect(cleared.progress).toBeUndefined();
        await expect(store.reportProgress(task.id, lease, { progress: { progress: Number.NaN } })).rejects.toThrow(TypeError);
      });

      it("asks for input: input_required with a snapshot of everything outstanding", async () => {
        const { task, lease } = await create();
        const asked = await store.requestInput(
          task.id,
          lease,
          { confirm: { method: "elicitation/create", params: { message: "Sure?" } } },
          { statusMessage: "Waiting for you" },
        );
        expect(asked).toMatchObject({ status: "input_required", statusMessage: "Waiting for you", inputKeys: ["confirm"], revision: 2 });
        expect(asked.inputRequests).toEqual({ confirm: { method: "elicitation/create", params: { message: "Sure?" } } });
        const more = await store.requestInput(task.id, lease, { name: { method: "elicitation/create" } });
        expect(Object.keys(more.inputRequests).sort()).toEqual(["confirm", "name"]);
        expect(more.inputKeys).toEqual(["confirm", "name"]);
        await expect(store.requestInput(task.id, lease, {})).rejects.toThrow(RangeError);
      });

      it("never asks a key twice in the task's life, outstanding or answered", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { a: 1 });
        await expect(store.requestInput(task.id, lease, { b: 2, a: 3 })).rejects.toThrow(InputKeyReusedError);
        await store.recordAnswers(task.id, P, { a: "yes" });
        const reused = store.requestInput(task.id, lease, { a: 4 });
        await expect(reused).rejects.toMatchObject({ code: "input-key-reused", keys: ["a"] });
        const after = (await store.get(task.id, P))!;
        expect(after).toMatchObject({ status: "working", inputKeys: ["a"], inputRequests: {} });
      });

      it("completes with a result (JSON null too); nothing stays outstanding and the lease ends", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { a: 1 });
        db.advance(10);
        const done = await store.complete(task.id, lease, { content: [{ type: "text", text: "42" }], isError: false });
        expect(done).toMatchObject({
          status: "completed",
          result: { content: [{ type: "text", text: "42" }], isError: false },
          inputRequests: {},
        });
        expect(done.error).toBeUndefined();
        expect(done.lease.expiresAt).toBe(done.lastUpdatedAt);
        const other = await create();
        expect((await store.complete(other.task.id, other.lease, null)).result).toBeNull();
      });

      it("fails with a protocol error and no result", async () => {
        const { task, lease } = await create();
        const failed = await store.fail(task.id, lease, { code: -32602, message: "Bad input", data: { field: "x" } });
        expect(failed).toMatchObject({ status: "failed", error: { code: -32602, message: "Bad input", data: { field: "x" } } });
        expect(failed.result).toBeUndefined();
        const other = await create();
        expect((await store.fail(other.task.id, other.lease, { code: -32603, message: "Internal" })).error).toEqual({
          code: -32603,
          message: "Internal",
        });
        await expect(store.fail(other.task.id, other.lease, { code: 1.5, message: "x" })).rejects.toThrow(TypeError);
      });

      it("a terminal task is final: every write refuses with TaskFinishedError and changes nothing", async () => {
        for (const end of ["completed", "failed", "cancelled"] as const) {
          const { task, lease } = await create();
          if (end === "completed") await store.complete(task.id, lease, { ok: true });
          if (end === "failed") await store.fail(task.id, lease, { code: -32603, message: "x" });
          if (end === "cancelled") await store.cancel(task.id, P);
          const before = (await store.get(task.id, P))!;
          for (const write of [
            () => store.complete(task.id, lease, { late: true }),
            () => store.fail(task.id, lease, { code: 1, message: "late" }),
            () => store.reportProgress(task.id, lease, { statusMessage: "late" }),
            () => store.requestInput(task.id, lease, { late: 1 }),
            () => store.renewLease(task.id, lease, LEASE_MS),
          ]) {
            await expect(write()).rejects.toMatchObject({ code: "task-finished", status: end });
          }
          await expect(store.releaseLease(task.id, lease)).resolves.toBe(false);
          expect(await store.cancel(task.id, P)).toEqual(before);
          expect(await store.recordAnswers(task.id, P, { late: 1 })).toEqual(before);
          expect(await store.claim(task.id, "worker-b", LEASE_MS)).toBeUndefined();
          expect(await store.get(task.id, P)).toEqual(before);
        }
      });

      it("a worker writing to an unknown task gets TaskNotFoundError", async () => {
        const { lease } = await create();
        await expect(store.complete("AAAAAAAAAAAAAAAAAAAAAA", lease, {})).rejects.toThrow(TaskNotFoundError);
        await expect(store.renewLease("AAAAAAAAAAAAAAAAAAAAAA", lease, LEASE_MS)).rejects.toMatchObject({ code: "task-not-found" });
        await expect(store.releaseLease("AAAAAAAAAAAAAAAAAAAAAA", lease)).resolves.toBe(false);
      });
    });

    describe("status message follows the status", () => {
      const progressed = async (overrides?: Partial<CreateTaskInput>) => {
        const claimed = await create(overrides);
        await store.reportProgress(claimed.task.id, claimed.lease, {
          statusMessage: "Computing a result",
          progress: { progress: 1, total: 2 },
        });
        return claimed;
      };

      it("failed (by the worker or as worker-lost) and cancelled tasks drop the last progress message; completed keeps it", async () => {
        const failed = await progressed();
        expect((await store.fail(failed.task.id, failed.lease, { code: -32000, message: "boom" })).statusMessage).toBeUndefined();
        const cancelled = await progressed();
        expect((await store.cancel(cancelled.task.id, P))!.statusMessage).toBeUndefined();
        const completed = await progressed();
        expect((await store.complete(completed.task.id, completed.lease, {})).statusMessage).toBe("Computing a result");
        const lost = await progressed();
        db.advance(LEASE_MS);
        expect(await store.failAbandoned()).toEqual([lost.task.id]);
        const after = (await store.get(lost.task.id, P))!;
        expect(after).toMatchObject({ status: "failed", error: { data: { reason: "worker-lost" } } });
        expect(after.statusMessage).toBeUndefined();
      });

      it("asking without a message clears the progress message; asking with one sets it", async () => {
        const { task, lease } = await progressed();
        const asked = await store.requestInput(task.id, lease, { q: 1 });
        expect(asked.status).toBe("input_required");
        expect(asked.statusMessage).toBeUndefined();
        const more = await store.requestInput(task.id, lease, { r: 2 }, { statusMessage: "Two questions" });
        expect(more.statusMessage).toBe("Two questions");
      });

      it("a re-run starts without the lost attempt's progress message, but keeps the message of questions still open", async () => {
        const working = await progressed({ retryPolicy: "rerun" });
        const waiting = await progressed({ retryPolicy: "rerun" });
        await store.requestInput(waiting.task.id, waiting.lease, { q: 1 }, { statusMessage: "Approve section 2?" });
        db.advance(LEASE_MS);
        const rerun = (await store.claim(working.task.id, "worker-b", LEASE_MS))!;
        expect(rerun.task).toMatchObject({ status: "working", attempt: 2, revision: working.task.revision + 2 });
        expect(rerun.task.statusMessage).toBeUndefined();
        expect((await store.get(working.task.id, P))!.statusMessage).toBeUndefined();
        const asking = (await store.claimNext("worker-b", LEASE_MS))!;
        expect(asking.task).toMatchObject({
          id: waiting.task.id,
          status: "input_required",
          statusMessage: "Approve section 2?",
          attempt: 2,
        });
      });
    });

    describe("answers", () => {
      it("accepts partial answers; the rest stays outstanding", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { name: { m: 1 }, confirm: { m: 2 } }, { statusMessage: "Two questions" });
        const partial = (await store.recordAnswers(task.id, P, { name: { action: "accept", content: { name: "partial-1" } } }))!;
        expect(partial).toMatchObject({ status: "input_required", statusMessage: "Two questions", inputRequests: { confirm: { m: 2 } } });
        expect(partial.inputResponses).toEqual({ name: { action: "accept", content: { name: "partial-1" } } });
        const done = (await store.recordAnswers(task.id, P, { confirm: { action: "accept", content: { confirm: true } } }))!;
        expect(done.status).toBe("working");
        expect(done.statusMessage).toBeUndefined();
        expect(done.inputRequests).toEqual({});
        expect(Object.keys(done.inputResponses).sort()).toEqual(["confirm", "name"]);
      });

      it("ignores unknown and already-answered keys without changing anything", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { a: 1, b: 2 });
        const first = (await store.recordAnswers(task.id, P, { a: "first" }))!;
        db.advance(100);
        const again = (await store.recordAnswers(task.id, P, { a: "second", "unknown-key": 1, ["__proto__"]: 2 } as Record<
          string,
          JsonValue
        >))!;
        expect(again).toEqual(first);
        const mixed = (await store.recordAnswers(task.id, P, { a: "third", b: "b" }))!;
        expect(mixed.inputResponses).toEqual({ a: "first", b: "b" });
        expect(mixed.status).toBe("working");
      });

      it("ignores answers when nothing is outstanding", async () => {
        const { task } = await create();
        expect(await store.recordAnswers(task.id, P, { a: 1 })).toEqual(task);
      });

      it("refuses answers that are not an object of key to value", async () => {
        const { task } = await create();
        await expect(store.recordAnswers(task.id, P, [1] as unknown as Record<string, JsonValue>)).rejects.toThrow(TypeError);
      });
    });

    describe("cancel", () => {
      it("ends an unfinished task cancelled at once; a late result cannot resurrect it", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { a: 1 });
        const cancelled = (await store.cancel(task.id, P))!;
        expect(cancelled).toMatchObject({ status: "cancelled", inputRequests: {}, revision: 3 });
        await expect(store.complete(task.id, lease, { late: true })).rejects.toThrow(TaskFinishedError);
        await expect(store.renewLease(task.id, lease, LEASE_MS)).rejects.toThrow(TaskFinishedError);
        expect(await store.get(task.id, P)).toEqual(cancelled);
      });

      it("is a no-op on a finished task, which keeps its outcome", async () => {
        const { task, lease } = await create();
        const done = await store.complete(task.id, lease, { ok: 1 });
        expect(await store.cancel(task.id, P)).toEqual(done);
      });
    });

    describe("leases and fencing", () => {
      it("refuses writes fenced by a wrong token or generation, changing nothing", async () => {
        const { task, lease } = await create();
        for (const stale of [
          { token: "x".repeat(22), generation: 1 },
          { token: lease.token, generation: 2 },
        ]) {
          await expect(store.complete(task.id, stale, {})).rejects.toThrow(StaleLeaseError);
          await expect(store.reportProgress(task.id, stale, { statusMessage: "x" })).rejects.toMatchObject({ code: "stale-lease" });
          await expect(store.renewLease(task.id, stale, LEASE_MS)).rejects.toThrow(StaleLeaseError);
          await expect(store.releaseLease(task.id, stale)).resolves.toBe(false);
        }
        expect(await store.get(task.id, P)).toEqual(task);
      });

      it("renews from the store's now without touching lastUpdatedAt or revision", async () => {
        const { task, lease } = await create();
        db.advance(20_000);
        const renewed = await store.renewLease(task.id, lease, 60_000);
        expect(renewed).toMatchObject({ token: lease.token, generation: 1, owner: "worker-a" });
        expect(Date.parse(renewed.expiresAt) - Date.parse(task.createdAt)).toBe(80_000);
        const after = (await store.get(task.id, P))!;
        expect(after).toMatchObject({
          lastUpdatedAt: task.lastUpdatedAt,
          revision: task.revision,
          lease: { expiresAt: renewed.expiresAt },
        });
        await expect(store.renewLease(task.id, lease, 0)).rejects.toThrow(RangeError);
      });

      it("a lapsed lease whose task nobody took over still writes: it is still the only worker", async () => {
        const { task, lease } = await create({ retryPolicy: "rerun" });
        db.advance(LEASE_MS + 1);
        await expect(store.renewLease(task.id, lease, LEASE_MS)).resolves.toMatchObject({ generation: 1 });
        await expect(store.complete(task.id, lease, { ok: true })).resolves.toMatchObject({ status: "completed" });
      });

      it("a claim never takes a held lease; once it lapses, a claim takes over and fences the old worker out", async () => {
        const { task, lease } = await create({ retryPolicy: "rerun" });
        await store.requestInput(task.id, lease, { a: 1, b: 2 });
        await store.recordAnswers(task.id, P, { a: "kept" });
        expect(await store.claim(task.id, "worker-b", LEASE_MS)).toBeUndefined();
        db.advance(LEASE_MS);
        const claimed = (await store.claim(task.id, "worker-b", LEASE_MS))!;
        expect(claimed.lease).toMatchObject({ owner: "worker-b", generation: 2 });
        expect(claimed.lease.token).not.toBe(lease.token);
        expect(claimed.task).toMatchObject({
          attempt: 2,
          idempotencyKey: task.idempotencyKey,
          input: task.input,
          status: "input_required",
          inputRequests: { b: 2 },
          inputResponses: { a: "kept" },
          revision: 3,
          lease: { owner: "worker-b", generation: 2 },
        });
        await expect(store.complete(task.id, lease, { stale: true })).rejects.toThrow(StaleLeaseError);
        await expect(store.renewLease(task.id, lease, LEASE_MS)).rejects.toThrow(StaleLeaseError);
        expect(await store.claim(task.id, "worker-c", LEASE_MS)).toBeUndefined();
        await expect(store.complete(task.id, claimed.lease, { fresh: true })).resolves.toMatchObject({ result: { fresh: true } });
      });

      it("release makes a rerun task claimable at once; releasing twice or a stale lease does nothing", async () => {
        const { task, lease } = await create({ retryPolicy: "rerun" });
        await expect(store.releaseLease(task.id, lease)).resolves.toBe(true);
        await expect(store.releaseLease(task.id, lease)).resolves.toBe(false);
        expect((await store.get(task.id, P))!.revision).toBe(1);
        const claimed = await store.claim(task.id, "worker-b", LEASE_MS);
        expect(claimed?.lease.generation).toBe(2);
        await expect(store.releaseLease(task.id, lease)).resolves.toBe(false);
      });

      it("claim refuses fail-policy tasks, exhausted ones, terminal ones and unknown ones", async () => {
        const fail = await create();
        const exhausted = await create({ retryPolicy: "rerun", maxAttempts: 1 });
        const finished = await create({ retryPolicy: "rerun" });
        await store.cancel(finished.task.id, P);
        db.advance(LEASE_MS);
        for (const id of [fail.task.id, exhausted.task.id, finished.task.id, "AAAAAAAAAAAAAAAAAAAAAA"]) {
          expect(await store.claim(id, "worker-b", LEASE_MS)).toBeUndefined();
        }
        await expect(store.claim(fail.task.id, "", LEASE_MS)).rejects.toThrow(TypeError);
      });
    });

    describe("recovery", () => {
      it("claimNext takes the rerun task whose lease lapsed first, and only claimable ones", async () => {
        expect(await store.claimNext("worker-b", LEASE_MS)).toBeUndefined();
        const fail = await create();
        const first = await create({ retryPolicy: "rerun" });
        db.advance(1000);
        const second = await create({ retryPolicy: "rerun" });
        const held = await create({ retryPolicy: "rerun", lease: { owner: "worker-a", durationMs: 10 * LEASE_MS } });
        const done = await create({ retryPolicy: "rerun" });
        await store.complete(done.task.id, done.lease, {});
        db.advance(LEASE_MS);
        const a = await store.claimNext("worker-b", LEASE_MS);
        const b = await store.claimNext("worker-b", LEASE_MS);
        expect([a?.task.id, b?.task.id]).toEqual([first.task.id, second.task.id]);
        expect(a!.task).toMatchObject({ attempt: 2, idempotencyKey: first.task.idempotencyKey, lease: { owner: "worker-b" } });
        expect(await store.claimNext("worker-b", LEASE_MS)).toBeUndefined();
        expect((await store.get(fail.task.id, P))!.status).toBe("working");
        expect((await store.get(held.task.id, P))!.attempt).toBe(1);
      });

      it("reruns until maxAttempts, then failAbandoned ends the task with a clear error", async () => {
        const { task } = await create({ retryPolicy: "rerun", maxAttempts: 2 });
        db.advance(LEASE_MS);
        expect(await store.failAbandoned()).toEqual([]);
        const second = (await store.claimNext("worker-b", LEASE_MS))!;
        expect(second.task.attempt).toBe(2);
        db.advance(LEASE_MS);
        expect(await store.claimNext("worker-c", LEASE_MS)).toBeUndefined();
        expect(await store.failAbandoned()).toEqual([task.id]);
        const failed = (await store.get(task.id, P))!;
        expect(failed.status).toBe("failed");
        expect(failed.error).toEqual({
          code: -32603,
          message: "The task's worker stopped before the task finished, on all 2 attempts allowed",
          data: { reason: "worker-lost", attempts: 2 },
        });
        await expect(store.complete(task.id, second.lease, {})).rejects.toThrow(TaskFinishedError);
      });

      it("failAbandoned ends lapsed fail-policy tasks, in batches, and leaves held, rerunnable and finished ones", async () => {
        const lost = await Promise.all([1, 2, 3].map(() => create()));
        const rerun = await create({ retryPolicy: "rerun" });
        const finished = await create();
        await store.complete(finished.task.id, finished.lease, {});
        db.advance(LEASE_MS - 1);
        expect(await store.failAbandoned()).toEqual([]);
        const held = await create();
        db.advance(1);
        const firstBatch = await store.failAbandoned({ limit: 2 });
        const secondBatch = await store.failAbandoned({ limit: 2 });
        expect(firstBatch).toHaveLength(2);
        expect([...firstBatch, ...secondBatch].sort()).toEqual(lost.map((l) => l.task.id).sort());
        expect(await store.failAbandoned()).toEqual([]);
        for (const { task } of lost) {
          expect((await store.get(task.id, P))!.error).toEqual({
            code: -32603,
            message: "The task's worker stopped before the task finished",
            data: { reason: "worker-lost", attempts: 1 },
          });
        }
        expect((await store.get(rerun.task.id, P))!.status).toBe("working");
        expect((await store.get(held.task.id, P))!.status).toBe("working");
        expect((await store.get(finished.task.id, P))!.status).toBe("completed");
        await expect(store.failAbandoned({ limit: 0 })).rejects.toThrow(RangeError);
      });

      it("after a worker dies, recovery leaves nothing working: every task reruns or fails", async () => {
        const tasks = [
          await create({ retryPolicy: "rerun" }),
          await create({ retryPolicy: "fail" }),
          await create({ retryPolicy: "rerun", maxAttempts: 1 }),
          await create({ retryPolicy: "rerun" }),
        ];
        await store.requestInput(tasks[3]!.task.id, tasks[3]!.lease, { q: 1 });
        db.advance(LEASE_MS);
        const rerun: ClaimedTask[] = [];
        for (let next = await store.claimNext("worker-b", LEASE_MS); next; next = await store.claimNext("worker-b", LEASE_MS))
          rerun.push(next);
        const failed = await store.failAbandoned();
        expect(rerun.map((r) => r.task.id).sort()).toEqual([tasks[0]!.task.id, tasks[3]!.task.id].sort());
        expect(failed.sort()).toEqual([tasks[1]!.task.id, tasks[2]!.task.id].sort());
        db.advance(1);
        expect(await store.claimNext("worker-c", LEASE_MS)).toBeUndefined();
        expect(await store.failAbandoned()).toEqual([]);
      });
    });

    describe("expiry and reaping", () => {
      it("a task stays readable for its whole ttl and is unknown to every operation from createdAt + ttlMs", async () => {
        const { task, lease } = await create({ ttlMs: 5000, retryPolicy: "rerun" });
        await store.requestInput(task.id, lease, { a: 1 });
        db.advance(4999);
        expect(await store.get(task.id, P)).toBeDefined();
        db.advance(1);
        expect(await store.get(task.id, P)).toBeUndefined();
        expect(await store.recordAnswers(task.id, P, { a: 1 })).toBeUndefined();
        expect(await store.cancel(task.id, P)).toBeUndefined();
        await expect(store.complete(task.id, lease, {})).rejects.toThrow(TaskNotFoundError);
        await expect(store.renewLease(task.id, lease, LEASE_MS)).rejects.toThrow(TaskNotFoundError);
        db.advance(LEASE_MS);
        expect(await store.claim(task.id, "worker-b", LEASE_MS)).toBeUndefined();
        expect(await store.claimNext("worker-b", LEASE_MS)).toBeUndefined();
        expect(await store.failAbandoned()).toEqual([]);
      });

      it("reapExpired deletes expired tasks in batches and leaves the rest", async () => {
        const short = await Promise.all([1, 2, 3].map(() => create({ ttlMs: 1000 })));
        const long = await create({ ttlMs: 10_000 });
        const forever = await create({ ttlMs: null });
        expect(await store.reapExpired()).toBe(0);
        db.advance(1000);
        expect(await store.reapExpired({ limit: 2 })).toBe(2);
        expect(await store.reapExpired({ limit: 2 })).toBe(1);
        expect(await store.reapExpired()).toBe(0);
        for (const { task } of short) await expect(store.complete(task.id, short[0]!.lease, {})).rejects.toThrow(TaskNotFoundError);
        expect(await store.get(long.task.id, P)).toBeDefined();
        expect(await store.get(forever.task.id, P)).toBeDefined();
      });
    });

    describe("watch", () => {
      it("tells the current state first, then each change made through this handle", async () => {
        const { task, lease } = await create();
        const told = new Told();
        const watch = await store.watch(task.id, P, told.listener);
        expect((await told.until((s) => s?.revision === 1, "the current state"))!.status).toBe("working");
        await store.requestInput(task.id, lease, { a: 1 });
        await told.until((s) => s?.status === "input_required", "input_required");
        await store.recordAnswers(task.id, P, { a: "yes" });
        expect((await told.until((s) => s?.inputResponses.a !== undefined, "the answer"))!.status).toBe("working");
        await store.cancel(task.id, P);
        await told.until((s) => s?.status === "cancelled", "the cancellation");
        watch.close();
        const revisions = told.states.map((s) => s!.revision);
        expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
        expect(new Set(revisions).size).toBe(revisions.length);
      });

      it("tells the changes made through another handle on the same database: answers, then cancel", async () => {
        const { task, lease } = await create();
        await store.requestInput(task.id, lease, { a: 1, b: 2 });
        const other = await db.second();
        const told = new Told();
        const watch = await store.watch(task.id, P, told.listener);
        await told.until((s) => s?.status === "input_required", "the current state");
        await other.recordAnswers(task.id, P, { a: "from B" });
        expect((await told.until((s) => s?.inputResponses.a === "from B", "the answer from another handle"))!.status).toBe(
          "input_required",
        );
        await other.cancel(task.id, P);
        await told.until((s) => s?.status === "cancelled", "the cancellation from another handle");
        watch.close();
      });

      it("tells a worker's result written through another handle", async () => {
        const { task, lease } = await create();
        const other = await db.second();
        const told = new Told();
        const watch = await other.watch(task.id, P, told.listener);
        await store.complete(task.id, lease, { n: 7 });
        expect((await told.until((s) => s?.status === "completed", "the result"))!.result).toEqual({ n: 7 });
        watch.close();
      });

      it("tells undefined for another principal's or an unknown task, and once a task is reaped", async () => {
        const { task } = await create({ ttlMs: 1000 });
        for (const [id, principal] of [
          [task.id, "mallory"],
          ["AAAAAAAAAAAAAAAAAAAAAA", P],
        ] as const) {
          const told = new Told();
          const watch = await store.watch(id, principal, told.listener);
          await told.until((s) => s === undefined, "undefined");
          expect(told.states).toEqual([undefined]);
          watch.close();
        }
        const told = new Told();
        const watch = await store.watch(task.id, P, told.listener);
        await told.until((s) => s?.revision === 1, "the current state");
        db.advance(1000);
        expect(await store.reapExpired()).toBe(1);
        await told.until((s) => s === undefined, "undefined after reaping");
        watch.close();
      });

      it("tells nothing after close", async () => {
        const { task, lease } = await create();
        const told = new Told();
        const closed = new Told();
        const watch = await store.watch(task.id, P, closed.listener);
        const open = await store.watch(task.id, P, told.listener);
        await closed.until((s) => s?.revision === 1, "the current state");
        watch.close();
        await store.complete(task.id, lease, {});
        await told.until((s) => s?.status === "completed", "completion on the open watch");
        expect(closed.states.map((s) => s?.status)).toEqual(["working"]);
        open.close();
      });

      it("a listener that throws does not stop the others, and the store logs it", async () => {
        const { task } = await create();
        const told = new Told();
        const w1 = await store.watch(task.id, P, () => {
          throw new Error("listener bug");
        });
        const w2 = await store.watch(task.id, P, told.listener);
        await store.cancel(task.id, P);
        await told.until((s) => s?.status === "cancelled", "the cancellation");
        expect(warnings).toContainEqual({ message: "A task watcher threw", fields: { taskId: task.id, error: "listener bug" } });
        w1.close();
        w2.close();
      });
    });

    describe("concurrency", () => {
      it("two handles racing to claim one lapsed task: exactly one wins", async () => {
        const other = await db.second();
        for (let round = 0; round < 5; round++) {
          const { task } = await create({ retryPolicy: "rerun" });
          db.advance(LEASE_MS);
          const results = await Promise.all([
            store.claim(task.id, "worker-a", LEASE_MS),
            other.claim(task.id, "worker-b", LEASE_MS),
            store.claim(task.id, "worker-c", LEASE_MS),
          ]);
          const winners = results.filter((r) => r !== undefined);
          expect(winners).toHaveLength(1);
          expect((await store.get(task.id, P))!.lease.owner).toBe(winners[0]!.lease.owner);
        }
      });

      it("handles racing claimNext never get the same task, and together take them all", async () => {
        const other = await db.second();
        const ids = (await Promise.all(Array.from({ length: 12 }, () => create({ retryPolicy: "rerun" })))).map((c) => c.task.id);
        db.advance(LEASE_MS);
        const claimed: string[] = [];
        const drain = async (s: TaskStore, owner: string) => {
          for (let next = await s.claimNext(owner, LEASE_MS); next; next = await s.claimNext(owner, LEASE_MS)) claimed.push(next.task.id);
        };
        await Promise.all([drain(store, "worker-a"), drain(other, "worker-b"), drain(store, "worker-c"), drain(other, "worker-d")]);
        expect(claimed.sort()).toEqual(ids.sort());
      });

      it("racing creates with one creation key, from two handles, make one task", async () => {
        const other = await db.second();
        for (let round = 0; round < 3; round++) {
          const key = `retry-${round}`;
          const results = await Promise.allSettled(
            Array.from({ length: 8 }, (_, i) => (i % 2 ? other : store).create(taskInput({ creationKey: key }))),
          );
          const made = results.filter((r): r is PromiseFulfilledResult<ClaimedTask> => r.status === "fulfilled");
          expect(made).toHaveLength(1);
          for (const r of results)
            if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "task-exists", task: { id: made[0]!.value.task.id } });
        }
      });

      it("racing creates at the active limit never exceed it", async () => {
        const limited = await open({ maxActiveTasksPerPrincipal: 5 });
        const other = await limited.second();
        const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => (i % 2 ? other : limited.store).create(taskInput())));
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
        for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(TaskLimitError);
      });
    });

    describe("model-based property", () => {
      it("random operation sequences agree with a model of the rules", async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: 30, size: "+1" }), async (commands) => {
            // A principal per run keeps each run's tasks apart (and under the active limit).
            const real: Real = { store, principal: `model-${run++}`, advance: (ms) => db.advance(ms), tasks: [] };
            await fc.asyncModelRun(() => ({ model: { tasks: [] }, real }), commands);
          }),
          { numRuns: options.propertyRuns },
        );
      });
    });
  });
}

// ---- the model ----------------------------------------------------------------------------

const KEYS = ["a", "b", "c"];

interface ModelTask {
  status: TaskRecord["status"];
  outstanding: Set<string>;
  used: string[];
  answered: Map<string, JsonValue>;
}

interface Model {
  tasks: ModelTask[];
}

interface RealTask {
  id: string;
  lease: LeaseRef;
  stale: LeaseRef[];
}

interface Real {
  store: TaskStore;
  principal: string;
  advance(ms: number): void;
  tasks: RealTask[];
}

type Command = fc.AsyncCommand<Model, Real>;
const terminal = (t: ModelTask) => t.status === "completed" || t.status === "failed" || t.status === "cancelled";

async function refusal(action: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

async function agrees(model: ModelTask, real: RealTask, r: Real): Promise<void> {
  const got = (await r.store.get(real.id, r.principal))!;
  expect(got.status).toBe(model.status);
  expect(Object.keys(got.inputRequests).sort()).toEqual([...model.outstanding].sort());
  expect(got.inputKeys).toEqual(model.used);
  expect(got.inputResponses).toEqual(Object.fromEntries(model.answered));
}

/** A command on one of the tasks created so far (the drawn number modulo their count). */
abstract class OnTask implements Command {
  private readonly drawn: number;
  /**
   * Set by check(): the task this command acts on, below m.tasks.length; r.tasks is kept in step
   * with m.tasks, so `m.tasks[this.index]!` and `r.tasks[this.index]!` always exist.
   */
  protected index = 0;
  constructor(drawn: number) {
    this.drawn = drawn;
  }
  check(m: Readonly<Model>): boolean {
    if (m.tasks.length === 0) return false;
    this.index = this.drawn % m.tasks.length;
    return true;
  }
  abstract run(m: Model, r: Real): Promise<void>;
  protected async after(m: Model, r: Real): Promise<void> {
    await agrees(m.tasks[this.index]!, r.tasks[this.index]!, r);
  }
}

class Create implements Command {
  check(m: Readonly<Model>): boolean {
    return m.tasks.length < 4;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { task, lease } = await r.store.create(
      taskInput({ principal: r.principal, retryPolicy: "rerun", maxAttempts: 100, ttlMs: null }),
    );
    m.tasks.push({ status: "working", outstanding: new Set(), used: [], answered: new Map() });
    r.tasks.push({ id: task.id, lease, stale: [] });
  }
  toString(): string {
    return "create";
  }
}

class Ask extends OnTask {
  constructor(
    index: number,
    readonly keys: string[],
  ) {
    super(index);
  }
  override async run(m: Model, r: Real): Promise<void> {
    const t = m.tasks[this.index]!;
    const got = await refusal(() =>
      r.store.requestInput(r.tasks[this.index]!.id, r.tasks[this.index]!.lease, Object.fromEntries(this.keys.map((k) => [k, { q: k }]))),
    );
    const expected = terminal(t) ? "task-finished" : this.keys.some((k) => t.used.includes(k)) ? "input-key-reused" : undefined;
    expect(got).toBe(expected);
    if (expected === undefined) {
      t.status = "input_required";
      for (const k of this.keys) t.outstanding.add(k);
      t.used.push(...this.keys);
    }
    await this.after(m, r);
  }
  override toString(): string {
    return `ask(${this.index}, ${this.keys})`;
  }
}

class Answer extends OnTask {
  constructor(
    index: number,
    readonly keys: string[],
  ) {
    super(index);
  }
  override async run(m: Model, r: Real): Promise<void> {
    const t = m.tasks[this.index]!;
    const value = this.toString();
    const back = await r.store.recordAnswers(r.tasks[this.index]!.id, r.principal, Object.fromEntries(this.keys.map((k) => [k, value])));
    expect(back).toBeDefined();
    if (t.status === "input_required") {
      for (const k of this.keys) {
        if (!t.outstanding.has(k)) continue;
        t.outstanding.delete(k);
        t.answered.set(k, value);
      }
      if (t.outstanding.size === 0) t.status = "working";
    }
    await this.after(m, r);
  }
  override toString(): string {
    return `answer(${this.index}, ${this.keys})`;
  }
}

class Cancel extends OnTask {
  override async run(m: Model, r: Real): Promise<void> {
    const t = m.tasks[this.index]!;
    await r.store.cancel(r.tasks[this.index]!.id, r.principal);
    if (!terminal(t)) {
      t.status = "cancelled";
      t.outstanding.clear();
    }
    await this.after(m, r);
  }
  override toString(): string {
    return `cancel(${this.index})`;
  }
}

class Finish extends OnTask {
  constructor(
    index: number,
    readonly outcome: "completed" | "failed",
  ) {
    super(index);
  }
  override async run(m: Model, r: Real): Promise<void> {
    const t = m.tasks[this.index]!;
    const { id, lease } = r.tasks[this.index]!;
    const got = await refusal(() =>
      this.outcome === "completed" ? r.store.complete(id, lease, { ok: true }) : r.store.fail(id, lease, { code: -32603, message: "boom" }),
    );
    expect(got).toBe(terminal(t) ? "task-finished" : undefined);
    if (!terminal(t)) {
      t.status = this.outcome;
      t.outstanding.clear();
    }
    await this.after(m, r);
  }
  override toString(): string {
    return `${this.outcome}(${this.index})`;
  }
}

/** The worker dies: its lease lapses and another worker claims the task. */
class Takeover extends OnTask {
  override async run(m: Model, r: Real): Promise<void> {
    const t = m.tasks[this.index]!;
    const real = r.tasks[this.index]!;
    r.advance(LEASE_MS);
    // Every other task's worker is still alive: it renews before its lease would lapse.
    for (const [i, other] of r.tasks.entries())
      if (i !== this.index && !terminal(m.tasks[i]!)) await r.store.renewLease(other.id, other.lease, LEASE_MS);
    const claimed = await r.store.claim(real.id, "worker-b", LEASE_MS);
    expect(claimed !== undefined).toBe(!terminal(t));
    if (claimed) {
      real.stale.push(real.lease);
      real.lease = claimed.lease;
    }
    await this.after(m, r);
  }
  override toString(): string {
    return `takeover(${this.index})`;
  }
}

/** A worker whose lease was taken over tries to write. */
class StaleWrite extends OnTask {
  override async run(m: Model, r: Real): Promise<void> {
    const real = r.tasks[this.index]!;
    if (real.stale.length === 0) return;
    const got = await refusal(() => r.store.complete(real.id, real.stale[0]!, { stale: true }));
    expect(got).toBe(terminal(m.tasks[this.index]!) ? "task-finished" : "stale-lease");
    await this.after(m, r);
  }
  override toString(): string {
    return `staleWrite(${this.index})`;
  }
}

function commandArbitraries(): fc.Arbitrary<Command>[] {
  const index = fc.nat({ max: 3 });
  const keys = fc.subarray(KEYS, { minLength: 1, maxLength: 2 });
  return [
    fc.constant(new Create()),
    fc.tuple(index, keys).map(([i, k]) => new Ask(i, k)),
    fc.tuple(index, fc.subarray([...KEYS, "unknown"], { minLength: 1, maxLength: 3 })).map(([i, k]) => new Answer(i, k)),
    index.map((i) => new Cancel(i)),
    fc.tuple(index, fc.constantFrom("completed" as const, "failed" as const)).map(([i, o]) => new Finish(i, o)),
    index.map((i) => new Takeover(i)),
    index.map((i) => new StaleWrite(i)),
  ];
}
