// `npm run demo [-- --check]`: the preferences demo (MRTR and elicitation), then the tasks demo
// (a report built as a task), each in a process of its own with the same arguments. Exits with
// the first non-zero exit code, after running both.
import { spawnSync } from "node:child_process";
import path from "node:path";

const DEMOS = ["preferences/demo.js", "tasks/demo.js"];
let code = 0;
for (const demo of DEMOS) {
  const run = spawnSync(process.execPath, [path.join(__dirname, demo), ...process.argv.slice(2)], { stdio: "inherit" });
  if (code === 0) code = run.status ?? 1;
}
process.exitCode = code;
