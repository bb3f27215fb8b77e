/*
 * The SQLite store under faults outside this process (issue 25), with real second processes:
 * - a write lock another process holds (BEGIN IMMEDIATE, BEGIN EXCLUSIVE) never holds this
 *   process's event loop (its delay stays under 100 ms while the lock is held): reads answer at
 *   once, and writes, cancels and the background sweeps (failAbandoned, reapExpired) wait, then
 *   succeed once the lock is released, logging nothing;
 * - an operation still locked out after busyTimeoutMs (here given to openTaskStore) fails with a TaskStoreUnavailableError that
 *   says the file stayed locked, for how long, and what to do; the store works once the lock is gone;
 * - closing the store fails at once the operations still waiting for the lock;
 * - a store opened while another process holds the lock on a new file opens without waiting, and
 *   its first operation waits for the lock;
 * - a full file system (a small tmpfs in a mount namespace): the write that does not fit fails with
 *   a TaskStoreUnavailableError naming the file and the full disk, every task acknowledged before
 *   it stays readable (also after reopening), and writes succeed again once there is room;
 * - a read-only file (its owner's write bit cleared, opened as a non-root user) or file system (a
 *   tmpfs remounted read-only): opening fails with a TaskStoreUnavailableError saying so (never
 *   a store that silently cannot write), and opens once it is writable again, every task kept.
 * The last two run a child process under `unshare` (Linux user and mount namespaces, util-linux),
 * which needs no root: the mount lives and dies with the child. Children run the compiled store
 * (dist/), which `npm test` builds first.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { SqliteTaskStore, type StoreLogger, openTaskStore } from "../../../src/stores";
import { holdLock, nodeChild } from "../../support/sqlite-lock-holder";
import { taskInput } from "./task-store-contract";

const DIST_STORES = path.resolve(__dirname, "../../../dist/src/stores/index.js");
/** How long a second process holds its lock: long enough that a blocked event loop shows. */
const HOLD_MS = 2000;
/**
 * The event loop's delay allowed while the lock is held: the old store blocked it for the whole
 * lock; a quarter of the lock tells the two apart with room for a loaded CI machine.
 */
const MAX_LOOP_DELAY_MS = HOLD_MS / 4;

jest.setTimeout(30_000);

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-sqlite-faults-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function recordingLogger(): StoreLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message, fields) => warnings.push(`${message} ${JSON.stringify(fields)}`) };
}

/** Records the settling of each promise by name, so a test can tell what is still waiting. */
function tracker() {
  const settled: string[] = [];
  return { settled, track: <T>(name: string, promise: Promise<T>) => promise.finally(() => settled.push(name)) };
}

describe("SqliteTaskStore under a lock another process holds", () => {
  it("keeps the event loop free, answers reads, and finishes writes and sweeps once the lock is released", async () => {
    const file = path.join(folder, "locked.sqlite");
    const logger = recordingLogger();
    const store = new SqliteTaskStore({ file, watchPollMs: 20, logger });
    const { task } = await store.create(taskInput());
    const told: (string | undefined)[] = [];
    const watch = await store.watch(task.id, "alice", (state) => told.push(state?.status));

    const holder = await holdLock(file, "BEGIN IMMEDIATE");
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const { settled, track } = tracker();
    const created = track("create", store.create(taskInput()));
    const cancelled = track("cancel", store.cancel(task.id, "alice"));
    const swept = track("failAbandoned", store.failAbandoned());
    const reaped = track("reapExpired", store.reapExpired());
    // WAL: a read needs no write lock.
    expect(await store.get(task.id, "alice")).toMatchObject({ id: task.id, status: "working" });
    await sleep(HOLD_MS);
    delay.disable();
    expect(settled).toEqual([]);
    expect(delay.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);

    await holder.release();
    await expect(created).resolves.toMatchObject({ task: { status: "working" } });
    await expect(cancelled).resolves.toMatchObject({ id: task.id, status: "cancelled" });
    await expect(swept).resolves.toEqual([]);
    await expect(reaped).resolves.toBe(0);
    expect(told).toEqual(["working", "cancelled"]);
    expect(logger.warnings).toEqual([]);
    watch.close();
    await store.close();
  });

  it("fails an operation still locked out after busyTimeoutMs with an error saying so, without blocking, and works once the lock is gone", async () => {
    const file = path.join(folder, "deadline.sqlite");
    const store = await openTaskStore(`sqlite:${file}`, { busyTimeoutMs: 300 });
    await store.create(taskInput());
    const holder = await holdLock(file, "BEGIN EXCLUSIVE");
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const outcomes = await Promise.allSettled([store.create(taskInput()), store.failAbandoned(), store.reapExpired()]);
    const waited = performance.now() - started;
    delay.disable();
    try {
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          status: "rejected",
          reason: { name: "TaskStoreUnavailableError", code: "store-unavailable", cause: { code: "SQLITE_BUSY" } },
        });
        expect((outcome as PromiseRejectedResult).reason.message).toMatch(
          new RegExp(
            `^The SQLite task store's file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} stayed locked by another connection \\(SQLITE_BUSY\\) for \\d+ ms, longer than busyTimeoutMs \\(300 ms\\), so the operation was not applied; retry it`,
          ),
        );
      }
      expect(waited).toBeGreaterThanOrEqual(295);
      expect(waited).toBeLessThan(2000);
      expect(delay.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);
    } finally {
      await holder.release();
    }
    await expect(store.create(taskInput())).resolves.toMatchObject({ task: { status: "working" } });
    await store.close();
  });

  it("fails the operations still waiting for the lock at once when the store closes", async () => {
    const file = path.join(folder, "closing.sqlite");
    const store = new SqliteTaskStore({ file });
    await store.create(taskInput());
    const holder = await holdLock(file, "BEGIN IMMEDIATE");
    try {
      const waiting = store.create(taskInput());
      const closing = performance.now();
      await store.close();
      await expect(waiting).rejects.toMatchObject({
        name: "TaskStoreUnavailableError",
        message: `The SQLite task store on ${file} is closed`,
      });
      // Well inside the 5 s it would otherwise wait.
      expect(performance.now() - closing).toBeLessThan(2500);
    } finally {
      await holder.release();
    }
  });

  it("opens a new file another process has locked without waiting; the first operation waits for the lock", async () => {
    const file = path.join(folder, "opening.sqlite");
    const holder = await holdLock(file, "BEGIN IMMEDIATE");
    const opening = performance.now();
    const store = new SqliteTaskStore({ file });
    expect(performance.now() - opening).toBeLessThan(MAX_LOOP_DELAY_MS);
    const { settled, track } = tracker();
    const created = track("create", store.create(taskInput()));
    await sleep(HOLD_MS / 2);
    expect(settled).toEqual([]);
    await holder.release();
    const { task } = await created;
    expect(await store.get(task.id, "alice")).toEqual(task);
    await store.close();
  });
});

/** Runs `body` (a script awaiting `stores`, `dir`, `report`) in a child under `unshare`; resolves with what it reported. */
async function inNamespace(wrapper: string[], dir: string, body: string): Promise<Record<string, unknown>> {
  const child = nodeChild(
    `const stores = require(${JSON.stringify(DIST_STORES)}); const fs = require("node:fs"); const { execFileSync } = require("node:child_process");
     const dir = ${JSON.stringify(dir)};
     const report = (fields) => console.log(JSON.stringify(fields));
     const input = (blob = "") => ({ principal: "alice", toolName: "t", input: { blob }, ttlMs: null, lease: { owner: "w", durationMs: 60000 } });
     const failure = (error) => ({ name: error.name, code: error.code, message: error.message, cause: error.cause && error.cause.code });
     (async () => { ${body} })().then(() => report({ alive: true }), (error) => { console.error(error); process.exit(1); });`,
    wrapper,
  );
  const out: Record<string, unknown> = {};
  for (;;) {
    const fields = JSON.parse(await child.nextLine()) as Record<string, unknown>;
    Object.assign(out, fields);
    if (fields.alive) break;
  }
  expect(await child.exited).toBe(0);
  return out;
}

describe("SqliteTaskStore on a file system that refuses writes", () => {
  it("on a full disk fails the write that does not fit with an error naming it, keeps every acknowledged task, and writes again once there is room", async () => {
    const dir = path.join(folder, "small");
    mkdirSync(dir);
    const out = await inNamespace(
      ["unshare", "--map-root-user", "--mount"],
      dir,
      `execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", dir]);
       fs.writeFileSync(dir + "/ballast", Buffer.alloc(128 * 1024));
       const file = dir + "/tasks.sqlite";
       const store = new stores.SqliteTaskStore({ file });
       const kept = [];
       let refused;
       while (refused === undefined && kept.length < 100) {
         try { kept.push((await store.create(input("x".repeat(20000)))).task.id); } catch (error) { refused = failure(error); }
       }
       const readable = (await Promise.all(kept.map((id) => store.get(id, "alice")))).filter(Boolean).length;
       fs.rmSync(dir + "/ballast");
       const after = (await store.create(input("y"))).task.id;
       await store.close();
       const reopened = new stores.SqliteTaskStore({ file });
       const durable = (await Promise.all([...kept, after].map((id) => reopened.get(id, "alice")))).filter(Boolean).length;
       await reopened.close();
       report({ file, kept: kept.length, refused, readable, durable });`,
    );
    expect(out.kept).toBeGreaterThan(0);
    expect(out.kept).toBeLessThan(100);
    expect(out.refused).toEqual({
      name: "TaskStoreUnavailableError",
      code: "store-unavailable",
      cause: "SQLITE_FULL",
      message: `The SQLite task store cannot use ${out.file as string} (SQLITE_FULL): its disk is full; free space on that file system. Nothing was written.`,
    });
    expect(out.readable).toBe(out.kept);
    expect(out.durable).toBe((out.kept as number) + 1);
  });

  it("refuses to open a file on a read-only file system with an error saying so, and opens it once the file system is writable", async () => {
    const dir = path.join(folder, "mounted");
    mkdirSync(dir);
    const out = await inNamespace(
      ["unshare", "--map-root-user", "--mount"],
      dir,
      `execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]);
       const file = dir + "/tasks.sqlite";
       const first = await stores.openTaskStore("sqlite:" + file);
       const id = (await first.create(input())).task.id;
       await first.close();
       execFileSync("mount", ["-o", "remount,ro", dir]);
       let refused;
       await stores.openTaskStore("sqlite:" + file).then((store) => store.close(), (error) => { refused = failure(error); });
       execFileSync("mount", ["-o", "remount,rw", dir]);
       const store = await stores.openTaskStore("sqlite:" + file);
       const kept = await store.get(id, "alice");
       const created = await store.create(input());
       await store.close();
       report({ file, refused, kept: kept && kept.id === id, created: created.task.status });`,
    );
    expect(out).toEqual({
      file: path.join(dir, "tasks.sqlite"),
      refused: {
        name: "TaskStoreUnavailableError",
        code: "store-unavailable",
        cause: "EROFS",
        message: `The SQLite task store cannot use ${path.join(dir, "tasks.sqlite")} (EROFS): the file, its folder or its file system is read-only for this process; make them writable. Nothing was written.`,
      },
      kept: true,
      created: "working",
      alive: true,
    });
  });

  it("refuses to open a read-only file with an error saying so, and opens it once it is writable, every task kept", async () => {
    const file = path.join(folder, "readonly.sqlite");
    const store = new SqliteTaskStore({ file });
    const { task } = await store.create(taskInput());
    await store.close();
    chmodSync(file, 0o444);
    // As the file's owner without root's override (uid 1000 in a user namespace), the mode bits apply.
    const out = await inNamespace(
      ["unshare", "--user", "--map-user=1000", "--map-group=1000"],
      folder,
      `const file = ${JSON.stringify(file)};
       let refused;
       await stores.openTaskStore("sqlite:" + file).then((store) => store.close(), (error) => { refused = failure(error); });
       fs.chmodSync(file, 0o644);
       const store = await stores.openTaskStore("sqlite:" + file);
       const kept = await store.get(${JSON.stringify(task.id)}, "alice");
       const created = await store.create(input());
       await store.close();
       report({ uid: process.getuid(), refused, kept: kept && kept.id, created: created.task.status });`,
    );
    expect(out).toEqual({
      uid: 1000,
      refused: {
        name: "TaskStoreUnavailableError",
        code: "store-unavailable",
        cause: "EACCES",
        message: `The SQLite task store cannot use ${file} (EACCES): the file, its folder or its file system is read-only for this process; make them writable. Nothing was written.`,
      },
      kept: task.id,
      created: "working",
      alive: true,
    });
  });
});
