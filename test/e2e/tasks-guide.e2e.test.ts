// Runs the tasks guide's examples (docs/tasks.md, files under docs/examples/tasks/), so its claims
// are checked, not only compiled:
// - export-test.ts as the jest test it is: the format asked by MRTR, then a task that completes
//   with the file; a large export asks through the task and ends with the tool error when declined;
// - main.ts: the one-machine app keeps its tasks in tasks.sqlite under DATA_DIR;
// - requester-test.ts (the official tasks requester, @modelcontextprotocol/ext-tasks 0.2.2, beside
//   the official client 2.4.0, through report-requester.ts and request-coordinator.ts) against the
//   tasks sample over Streamable HTTP and in-process: build_report runs as a task whose question is
//   answered; a creating call whose answer is lost is sent again with its idempotency key and finds
//   the task the server created and ran (the one that completes, its question asked once); a task
//   handed off outlives its session and is resumed by a new one, and one whose session closes is
//   cancelled on the server.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import "../../docs/examples/tasks/export-test";
import "../../docs/examples/tasks/requester-test";
import { createExportApp } from "../../docs/examples/tasks/main";

describe("the one-machine app of the tasks guide", () => {
  it("keeps its tasks in tasks.sqlite under DATA_DIR", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-guide-"));
    process.env.DATA_DIR = folder;
    process.env.STATE_KEYS = `k1:${Buffer.alloc(32, 7).toString("base64")}`;
    try {
      const app = createExportApp();
      const file = path.join(folder, "tasks.sqlite");
      // The store opens when the app is built (a store that cannot open is reported at start-up).
      const deadline = Date.now() + 5000;
      while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await app.close();
      expect(existsSync(file)).toBe(true);
    } finally {
      delete process.env.DATA_DIR;
      delete process.env.STATE_KEYS;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
