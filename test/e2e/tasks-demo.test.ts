// Pins `node dist/sample/tasks/demo.js --check`, the tasks half of `npm run demo -- --check`, on the
// compiled build (`npm test` builds first): exit 0, nothing on stderr, one "ok" line per workflow
// (report: progress, the question answered through tasks/update, the result; cancel: settles
// cancelled and stays so) over stdio and HTTP, and the summary "4/4 task runs passed".
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const DEMO = path.join(ROOT, "dist/sample/tasks/demo.js");

describe("the tasks demo, --check", () => {
  it("passes both workflows over stdio and HTTP", async () => {
    if (!fs.existsSync(DEMO)) throw new Error(`${DEMO} is missing: run \`npm run build\` first (\`npm test\` does)`);
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [DEMO, "--check"],
        { cwd: ROOT, env: { ...process.env, REPORT_STEP_MS: "150" }, timeout: 60_000 },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const transport of ["stdio", "http"]) {
      for (const workflow of ["report", "cancel"])
        expect(run.stdout).toMatch(new RegExp(`^ok   ${transport}/${workflow}: \\d+ polls, \\d+ ms$`, "m"));
    }
    expect(run.stdout).not.toContain("FAIL");
    expect(run.stdout).toMatch(/^summary: 4\/4 task runs passed in \d+\.\d s$/m);
  });
});
