// `node dist/sample/tasks/demo.js [--check]` (run by `npm run demo`): drives the tasks sample over
// stdio and over HTTP, each a child process with its tasks in a SQLite file of its own, through two
// workflows: a report built in steps (progress, a question answered mid-task, the result) and a
// report cancelled mid-way. It prints what it sent and what each tasks/get showed; --check prints
// one line per workflow instead. Every step is checked; any deviation exits 1 naming it.
//
// The client is roundtrip-mcp/testing's raw 2026-07-28 client: the official client 2.4.0 refuses a
// `resultType: "task"` answer and has no tasks/* methods yet.
import "reflect-metadata";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as readline from "node:readline";
import { createHttpTestClient, createStdioTestClient, type TestClient } from "roundtrip-mcp/testing";
import { cancelWorkflow, reportWorkflow, type WorkflowRun } from "./demo/report-workflows";

const USAGE = "usage: node dist/sample/tasks/demo.js [--check]";
const CAPABILITIES = { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } };
const WORKFLOWS = [reportWorkflow, cancelWorkflow];

interface Served {
  transport: "stdio" | "http";
  served: string;
  client: TestClient;
  close(): Promise<void>;
}

function env(folder: string, transport: string): Record<string, string> {
  return { TASK_STORE: `sqlite:${path.join(folder, `${transport}.sqlite`)}`, REPORT_STEP_MS: process.env.REPORT_STEP_MS ?? "150" };
}

async function overStdio(folder: string): Promise<Served> {
  const entry = path.join(__dirname, "main-stdio.js");
  const client = await createStdioTestClient(
    { command: process.execPath, args: [entry], env: env(folder, "stdio") },
    { capabilities: CAPABILITIES },
  );
  return {
    transport: "stdio",
    served: `node ${path.relative(process.cwd(), entry)} (child process, stdio)`,
    client,
    close: () => client.close(),
  };
}

async function overHttp(folder: string): Promise<Served> {
  const entry = path.join(__dirname, "main-http.js");
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env(folder, "http"), PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve(/http:\/\/\S+/.exec(line)?.[0] ?? ""));
    void exited.then(() => reject(new Error(`the HTTP server exited before it served: ${stderr}`)));
  });
  const client = await createHttpTestClient(url, { capabilities: CAPABILITIES });
  return {
    transport: "http",
    served: `node ${path.relative(process.cwd(), entry)} (child process, ${url})`,
    client,
    close: async () => {
      await client.close();
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main(args: readonly string[]): Promise<number> {
  if (args.some((a) => a !== "--check")) {
    console.error(`unknown argument ${args.find((a) => a !== "--check")}\n${USAGE}`);
    return 2;
  }
  const check = args.includes("--check");
  const began = performance.now();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "roundtrip-tasks-demo-"));
  console.log("roundtrip-mcp tasks demo");
  console.log("  client     roundtrip-mcp/testing raw client, 2026-07-28, declaring the tasks extension (io.modelcontextprotocol/tasks)");
  console.log(
    `  workflows  ${WORKFLOWS.map((w) => w.name.replace("Workflow", "")).join(", ")}; over stdio and http; each server keeps its tasks in a SQLite file of its own`,
  );
  const runs: { transport: string; run: WorkflowRun }[] = [];
  let failed = false;
  try {
    for (const open of [overStdio, overHttp]) {
      const served = await open(folder);
      if (!check) console.log(`\n${served.transport}: ${served.served}`);
      try {
        for (const workflow of WORKFLOWS) {
          const run = await workflow(served.client);
          runs.push({ transport: served.transport, run });
          failed ||= run.failure !== undefined;
          const head = `${served.transport}/${run.id}: ${run.polls} polls, ${run.ms} ms`;
          if (check) console.log(`${run.failure ? "FAIL" : "ok  "} ${head}${run.failure ? ` -- ${run.failure}` : ""}`);
          else
            console.log(
              [`  ${run.id}`, ...run.lines.map((l) => `    ${l}`), ...(run.failure ? [`    FAIL ${run.failure}`] : [])].join("\n"),
            );
        }
      } finally {
        await served.close();
      }
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const passed = runs.filter((r) => r.run.failure === undefined).length;
  console.log(
    `${check ? "" : "\n"}summary: ${passed}/${WORKFLOWS.length * 2} task runs passed in ${((performance.now() - began) / 1000).toFixed(1)} s`,
  );
  return failed || runs.length !== WORKFLOWS.length * 2 ? 1 : 0;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`tasks demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
