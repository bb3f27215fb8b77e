// Runs the tasks guide's examples (docs/tasks.md, files under docs/examples/tasks/), so its claims
// are checked, not only compiled:
// - export-test.ts as the jest test it is: the format asked by MRTR, then a task that completes
//   with the file; a large export asks through the task and ends with the tool error when declined;
// - main.ts: the one-machine app keeps its tasks in tasks.sqlite under DATA_DIR.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import "../../docs/examples/tasks/export-test";
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
