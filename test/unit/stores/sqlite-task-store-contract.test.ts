/*
 * The TaskStore contract (task-store-contract.ts) on the SQLite store: a fresh file per test in
 * a temporary folder (removed afterwards), an injected clock shared by every handle, and
 * "another handle" a second connection on the same file, as a second process would have.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteTaskStore, type TaskStore } from "../../../src/stores";
import { describeTaskStoreContract } from "./task-store-contract";

const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-sqlite-contract-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

describeTaskStoreContract("sqlite", {
  propertyRuns: 100,
  async open(settings) {
    let now = Date.UTC(2030, 0, 1);
    const file = path.join(folder, `tasks-${files++}.sqlite`);
    const handles: TaskStore[] = [];
    const openHandle = () => {
      const handle = new SqliteTaskStore({ ...settings, file, clock: () => now, watchPollMs: 10 });
      handles.push(handle);
      return handle;
    };
    return {
      store: openHandle(),
      second: async () => openHandle(),
      advance: (ms) => {
        now += ms;
      },
      dispose: async () => {
        await Promise.all(handles.map((h) => h.close()));
        rmSync(file, { force: true });
      },
    };
  },
});
