/*
 * What the SQLite store adds to the contract (task-store-contract.ts):
 * - opening creates the missing folders (mode 0700) and the file, in WAL mode, with the schema
 *   version recorded once; reopening keeps every task and migrates nothing;
 * - a version-1 file (before creation keys) is migrated in place, its tasks kept;
 * - a file whose schema is newer than this code is refused with TaskStoreConfigError;
 * - a write that waits longer than busyTimeoutMs for another connection's transaction fails
 *   with TaskStoreUnavailableError (cause SQLITE_BUSY), not a raw driver error;
 * - ping answers while another connection holds the write lock (reads need none), and rejects
 *   with TaskStoreUnavailableError once the store is closed;
 * - the hot queries use the indexes (principal counts, lapsed leases, expiry, creation keys);
 * - several processes on one file: two child processes draining claimNext in parallel claim
 *   every lapsed task exactly once, and a watcher here sees another process's cancel;
 * - a process killed with SIGKILL mid-task leaves a consistent file: after its lease lapses the
 *   task is claimed again (attempt 2, outstanding input kept).
 * Child processes run the compiled store (dist/), which `npm test` builds first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { SqliteTaskStore, TaskStoreConfigError, TaskStoreUnavailableError, type TaskRecord } from "../../../src/stores";
import { SQLITE_MIGRATIONS } from "../../../src/stores/sqlite-schema";
import { SQLITE_QUERIES } from "../../../src/stores/sqlite-task-store";
import { taskInput } from "./task-store-contract";

const DIST_STORES = path.resolve(__dirname, "../../../dist/src/stores/index.js");
let folder: string;

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-sqlite-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a script in a child node process with the compiled stores as `stores`; resolves with its stdout lines. */
function child(script: string, file: string): { process: ChildProcess; lines: AsyncIterable<string>; done: Promise<number | null> } {
  const proc = spawn(
    process.execPath,
    ["-e", `const stores = require(${JSON.stringify(DIST_STORES)}); const file = ${JSON.stringify(file)};\n${script}`],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const done = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  async function* lines() {
    let buffer = "";
    for await (const chunk of proc.stdout!) {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        yield buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
      }
    }
  }
  return { process: proc, lines: lines(), done };
}

async function allLines(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe("SqliteTaskStore", () => {
  it("creates its folder and file in WAL mode, records the schema version once, and keeps tasks across reopening", async () => {
    const file = path.join(folder, "nested", "deeper", "tasks.sqlite");
    const store = new SqliteTaskStore({ file });
    expect(store.file).toBe(file);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const { task } = await store.create(taskInput());
    await store.close();

    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.prepare("SELECT version FROM roundtrip_schema_version ORDER BY version").all()).toEqual(
      Array.from({ length: SqliteTaskStore.SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
    );
    raw.close();

    const reopened = new SqliteTaskStore({ file });
    expect(await reopened.get(task.id, "alice")).toEqual(task);
    await reopened.close();
    const again = new Database(file, { readonly: true });
    expect(again.prepare("SELECT count(*) AS n FROM roundtrip_schema_version").get()).toEqual({ n: SqliteTaskStore.SCHEMA_VERSION });
    again.close();
  });

  it("migrates a version-1 file in place: its tasks are kept, without a creation key, and new tasks take keys", async () => {
    const file = path.join(folder, "v1.sqlite");
    const v1 = new Database(file);
    v1.exec("CREATE TABLE roundtrip_schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)");
    v1.exec(SQLITE_MIGRATIONS[0]!);
    v1.prepare("INSERT INTO roundtrip_schema_version (version, applied_at) VALUES (1, 0)").run();
    const columns = (v1.prepare("SELECT name FROM pragma_table_info('roundtrip_tasks') ORDER BY cid").all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).not.toContain("creation_key");
    const now = Date.now();
    const old = {
      id: "old-task-id-0000000000",
      principal: "alice",
      tool_name: "slow_compute",
      input: "{}",
      status: "working",
      status_message: null,
      progress: null,
      created_at: now,
      last_updated_at: now,
      ttl_ms: 60_000,
      expires_at: now + 60_000,
      poll_interval_ms: null,
      result: null,
      error: null,
      input_requests: "{}",
      input_responses: "{}",
      input_keys: "[]",
      retry_policy: "fail",
      max_attempts: 1,
      attempt: 1,
      idempotency_key: "k",
      lease_owner: "w",
      lease_token: "t",
      lease_expires_at: now + 30_000,
      revision: 1,
    };
    v1.prepare(
      `INSERT INTO roundtrip_tasks (${Object.keys(old).join(", ")}) VALUES (${Object.keys(old)
        .map((c) => `@${c}`)
        .join(", ")})`,
    ).run(old);
    v1.close();

    const store = new SqliteTaskStore({ file });
    const kept = await store.get(old.id, "alice");
    expect(kept).toMatchObject({ id: old.id, status: "working" });
    expect(kept!.creationKey).toBeUndefined();
    const { task } = await store.create(taskInput({ creationKey: "retry-1" }));
    await expect(store.create(taskInput({ creationKey: "retry-1" }))).rejects.toMatchObject({ code: "task-exists", task: { id: task.id } });
    await store.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare("SELECT max(version) AS v FROM roundtrip_schema_version").get()).toEqual({ v: SqliteTaskStore.SCHEMA_VERSION });
    raw.close();
  });

  it("refuses a file whose schema is newer than this code", () => {
    const file = path.join(folder, "future.sqlite");
    new SqliteTaskStore({ file }).close();
    const raw = new Database(file);
    raw.prepare("INSERT INTO roundtrip_schema_version (version, applied_at) VALUES (?, 0)").run(SqliteTaskStore.SCHEMA_VERSION + 1);
    raw.close();
    expect(() => new SqliteTaskStore({ file })).toThrow(TaskStoreConfigError);
    expect(() => new SqliteTaskStore({ file })).toThrow(
      `version ${SqliteTaskStore.SCHEMA_VERSION + 1}, newer than this roundtrip-mcp knows (${SqliteTaskStore.SCHEMA_VERSION})`,
    );
  });

  it("fails a write that waits too long for another connection with TaskStoreUnavailableError", async () => {
    const file = path.join(folder, "busy.sqlite");
    const store = new SqliteTaskStore({ file, busyTimeoutMs: 20 });
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      const blocked = store.create(taskInput());
      await expect(blocked).rejects.toThrow(TaskStoreUnavailableError);
      await expect(blocked).rejects.toMatchObject({ code: "store-unavailable", cause: { code: "SQLITE_BUSY" } });
      await expect(blocked).rejects.toThrow(
        /stayed locked by another connection \(SQLITE_BUSY\) for \d+ ms, longer than busyTimeoutMs \(20 ms\)/,
      );
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    await expect(store.create(taskInput())).resolves.toBeDefined();
    await store.close();
  });

  it("pings while another connection holds the write lock, and refuses to once closed", async () => {
    const file = path.join(folder, "tasks.sqlite");
    const store = new SqliteTaskStore({ file, busyTimeoutMs: 50 });
    await store.ping();
    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    await store.close();
    await expect(store.ping()).rejects.toBeInstanceOf(TaskStoreUnavailableError);
  });

  it("answers its hot queries from indexes", async () => {
    const file = path.join(folder, "plans.sqlite");
    new SqliteTaskStore({ file }).close();
    const raw = new Database(file);
    const plan = (sql: string, params: unknown = { now: 0, limit: 1, principal: "p" }) =>
      (raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join("; ");
    expect(plan(SQLITE_QUERIES.count)).toMatch(/SEARCH roundtrip_tasks USING COVERING INDEX roundtrip_tasks_by_principal \(principal=\?/);
    expect(plan(SQLITE_QUERIES.claimable)).toMatch(/SEARCH roundtrip_tasks USING INDEX roundtrip_tasks_by_lease \(lease_expires_at<\?\)/);
    expect(plan(SQLITE_QUERIES.abandoned)).toMatch(/SEARCH roundtrip_tasks USING INDEX roundtrip_tasks_by_lease \(lease_expires_at<\?\)/);
    expect(plan(SQLITE_QUERIES.reap)).toMatch(/SEARCH roundtrip_tasks USING INDEX roundtrip_tasks_by_expiry \(expires_at<\?\)/);
    expect(plan(SQLITE_QUERIES.read, "id")).toMatch(/SEARCH roundtrip_tasks USING INDEX sqlite_autoindex_roundtrip_tasks_1 \(id=\?\)/);
    for (const query of [SQLITE_QUERIES.byCreationKey, SQLITE_QUERIES.clearCreationKey]) {
      expect(plan(query, '["p","k"]')).toMatch(
        /SEARCH roundtrip_tasks USING (COVERING )?INDEX roundtrip_tasks_by_creation_key \(creation_key=\?\)/,
      );
    }
    raw.close();
  });

  describe("several processes on one file", () => {
    it("two processes draining claimNext at once claim every lapsed task exactly once", async () => {
      const file = path.join(folder, "shared.sqlite");
      // Created an hour ago by this process's clock: every lease has lapsed for the children.
      const past = new SqliteTaskStore({ file, clock: () => Date.now() - 3_600_000 });
      const ids: string[] = [];
      for (let i = 0; i < 80; i++) ids.push((await past.create(taskInput({ retryPolicy: "rerun", ttlMs: null }))).task.id);
      await past.close();
      const drain = `
        const store = new stores.SqliteTaskStore({ file });
        (async () => {
          for (let next = await store.claimNext(process.pid + "", 600000); next; next = await store.claimNext(process.pid + "", 600000)) console.log(next.task.id);
          await store.close();
        })();`;
      const workers = [child(drain, file), child(drain, file)];
      const claimed = (await Promise.all(workers.map((w) => allLines(w.lines)))).flat();
      expect(await Promise.all(workers.map((w) => w.done))).toEqual([0, 0]);
      expect(claimed.sort()).toEqual(ids.sort());
    });

    it("a watcher in this process sees another process's cancel", async () => {
      const file = path.join(folder, "watched.sqlite");
      const store = new SqliteTaskStore({ file, watchPollMs: 20 });
      const { task } = await store.create(taskInput());
      const told: (TaskRecord | undefined)[] = [];
      const cancelled = new Promise<void>((resolve) => {
        void store.watch(task.id, "alice", (state) => {
          told.push(state);
          if (state?.status === "cancelled") resolve();
        });
      });
      const canceller = child(
        `new stores.SqliteTaskStore({ file }).cancel(${JSON.stringify(task.id)}, "alice").then((t) => console.log(t.status));`,
        file,
      );
      expect(await allLines(canceller.lines)).toEqual(["cancelled"]);
      await cancelled;
      expect(told.map((s) => s?.status)).toEqual(["working", "cancelled"]);
      await store.close();
    });

    it("a process killed with SIGKILL mid-task leaves a task that is claimed again once its lease lapses", async () => {
      const file = path.join(folder, "crash.sqlite");
      const worker = child(
        `
        const store = new stores.SqliteTaskStore({ file });
        (async () => {
          const { task, lease } = await store.create({ principal: "alice", toolName: "report", input: { steps: 3 }, ttlMs: null, retryPolicy: "rerun",
            lease: { owner: "doomed", durationMs: 60000 } });
          await store.reportProgress(task.id, lease, { statusMessage: "step 1 of 3", progress: { progress: 1, total: 3 } });
          await store.requestInput(task.id, lease, { confirm: { method: "elicitation/create" } });
          console.log(task.id);
          setInterval(() => store.renewLease(task.id, lease, 60000), 1000);
        })();`,
        file,
      );
      const { value: id } = await worker.lines[Symbol.asyncIterator]().next();
      worker.process.kill("SIGKILL");
      await worker.done;
      expect(existsSync(`${file}-wal`)).toBe(true);

      const later = new SqliteTaskStore({ file, clock: () => Date.now() + 120_000 });
      const claimed = await later.claimNext("survivor", 60_000);
      expect(claimed).toMatchObject({
        task: {
          id,
          status: "input_required",
          attempt: 2,
          progress: { progress: 1, total: 3 },
          inputRequests: { confirm: { method: "elicitation/create" } },
        },
        lease: { owner: "survivor", generation: 2 },
      });
      // Asked without a message: the task waits with none, never the progress message of before.
      expect(claimed!.task.statusMessage).toBeUndefined();
      await later.close();
    });
  });
});
