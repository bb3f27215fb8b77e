// A logging pass-through for a stdio MCP server, used as a host's server command by run-hosts.ts:
//   node tap-stdio.mjs LOGFILE command args...
// Every line in each direction is appended to LOGFILE as "> line" (host to server) or "< line".
/* global process */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
createInterface({ input: process.stdin })
  .on("line", (line) => {
    appendFileSync(log, `> ${line}\n`);
    child.stdin.write(`${line}\n`);
  })
  .on("close", () => child.stdin.end());
createInterface({ input: child.stdout }).on("line", (line) => {
  appendFileSync(log, `< ${line}\n`);
  process.stdout.write(`${line}\n`);
});
child.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
