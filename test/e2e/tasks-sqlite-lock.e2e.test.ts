/*
 * Pins at the app what a SQLite write lock held by another process does (issue 25, item 2), with
 * the store's recovery pass running every 20 ms and busyTimeoutMs given through storeOptions:
 * - while a task create waits for the lock, calls of a tool that never touches the store are
 *   answered, one after another, each in a loop turn of its own: the wait never holds the event
 *   loop (the old store held it for the whole lock); once the lock is released, that create makes
 *   its task, which completes;
 * - a create still locked out after busyTimeoutMs (300 ms) is -32603 "Internal error", with the
 *   cause (the file stayed locked) in the app logger only;
 * - the recovery passes that could not write log a warning and carry on;
 * - once the lock is released, a task is created and completes.
 * Nothing here depends on how fast the machine is: each step waits for the event it names.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MemoryLogger, createTestClient, type TestClient } from "roundtrip-mcp/testing";
import type { JsonObject } from "../../src/index";
import { SqliteTaskStore } from "../../src/stores";
import { holdLock } from "../support/sqlite-lock-holder";
import { createTaskApp } from "./fixtures/task-app";

const DECLARING = { extensions: { "io.modelcontextprotocol/tasks": {} } };
/** Plain calls answered while one create waits for the lock. */
const PLAIN_CALLS = 20;
/** A wait far longer than the test: the create waits until the test releases the lock. */
const WAIT_FOR_RELEASE_MS = 120_000;

type Response = { result?: JsonObject; error?: { code: number; message: string } };

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-sqlite-lock-"));
});
afterEach(() => {
  jest.restoreAllMocks();
  rmSync(folder, { recursive: true, force: true });
});

async function call(client: TestClient, name: string): Promise<Response> {
  return (await client.raw("tools/call", { name, arguments: {} }, { capabilities: DECLARING })) as unknown as Response;
}

async function completed(client: TestClient, taskId: string): Promise<JsonObject> {
  for (;;) {
    const { result } = (await client.raw("tasks/get", { taskId }, { capabilities: DECLARING })) as unknown as Response;
    if (result?.status !== "working") return result!;
    await sleep(20);
  }
}

/** The next turn of the event loop: in process a call may settle in microtasks alone, a client's next request comes with a later turn. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

it("answers tools that do not need the store while a task create waits for another process's write lock", async () => {
  const file = path.join(folder, "tasks.sqlite");
  const app = createTaskApp(
    { logger: new MemoryLogger() },
    { store: `sqlite:${file}`, leaseMs: 3000, recoveryIntervalMs: 20, storeOptions: { busyTimeoutMs: WAIT_FOR_RELEASE_MS } },
  );
  const client = await createTestClient(app, { capabilities: DECLARING });
  try {
    const first = await call(client, "quick");
    expect(await completed(client, first.result!.taskId as string)).toMatchObject({ status: "completed" });

    // The store's create tries the write at once (one try of at most 2 ms), and waits on a timer when it is locked.
    const create = SqliteTaskStore.prototype.create;
    let entered!: () => void;
    const waiting = new Promise<void>((resolve) => (entered = resolve));
    jest.spyOn(SqliteTaskStore.prototype, "create").mockImplementation(function (this: SqliteTaskStore, ...args) {
      const creating = create.apply(this, args);
      entered();
      return creating;
    });
    const holder = await holdLock(file, "BEGIN IMMEDIATE");
    let created = false;
    let creating: Promise<Response>;
    try {
      creating = call(client, "quick").finally(() => (created = true));
      await waiting;
      for (let i = 0; i < PLAIN_CALLS; i++) {
        const plain = await call(client, "plain");
        expect(plain.result).toMatchObject({ content: [{ type: "text", text: "plain" }] });
        // Answered while the create still waits for the lock.
        expect(created).toBe(false);
        await nextTurn();
      }
    } finally {
      await holder.release();
    }
    const made = await creating;
    expect(made.result).toMatchObject({ resultType: "task", status: "working" });
    expect(await completed(client, made.result!.taskId as string)).toMatchObject({ status: "completed" });
  } finally {
    await client.close();
    await app.close();
  }
});

it("refuses a task create still locked out after busyTimeoutMs, logs the recovery passes that could not write, and recovers", async () => {
  const file = path.join(folder, "tasks.sqlite");
  const logger = new MemoryLogger();
  const app = createTaskApp(
    { logger },
    { store: `sqlite:${file}`, leaseMs: 3000, recoveryIntervalMs: 20, storeOptions: { busyTimeoutMs: 300 } },
  );
  const client = await createTestClient(app, { capabilities: DECLARING });
  const recoveryFailed = () => logger.entries.some((entry) => entry.level === "warn" && entry.message === "task recovery pass failed");
  try {
    const first = await call(client, "quick");
    expect(await completed(client, first.result!.taskId as string)).toMatchObject({ status: "completed" });

    const holder = await holdLock(file, "BEGIN IMMEDIATE");
    let refused: Response;
    try {
      refused = await call(client, "quick");
      // A recovery pass's writes wait busyTimeoutMs too before they fail.
      while (!recoveryFailed()) await sleep(20);
    } finally {
      await holder.release();
    }
    expect(refused.error).toEqual({ code: -32603, message: "Internal error" });
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: "task store operation failed",
        fields: expect.objectContaining({
          operation: "create",
          code: "store-unavailable",
          error: expect.stringMatching(
            /stayed locked by another connection \(SQLITE_BUSY\) for \d+ ms, longer than busyTimeoutMs \(300 ms\)/,
          ),
        }),
      }),
    );
    expect(logger.entries).toContainEqual({
      level: "warn",
      message: "task recovery pass failed",
      fields: { error: expect.stringContaining("stayed locked by another connection") },
    });

    const after = await call(client, "quick");
    expect(await completed(client, after.result!.taskId as string)).toMatchObject({ status: "completed" });
  } finally {
    await client.close();
    await app.close();
  }
});
