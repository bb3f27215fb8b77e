// Task throughput benchmark (not a test): how many tool calls per second complete as tasks, from
// tools/call to a tasks/get that reads "completed", beside the same tool called plainly (no tasks
// extension declared, so it runs inline), for:
//   - the memory store, one instance (the runtime alone, no durability);
//   - the SQLite store, one instance (the default: a file, WAL);
//   - the PostgreSQL store, two instances on one database (tasks created on one, read on the other).
// Each server is the task fixture app (test/e2e/fixtures/task-app.ts, compiled) in a child process;
// the tool is `quick` (it returns at once), so what is measured is the task machinery. Clients here
// (CONCURRENCY loops over fetch) create a task, then poll tasks/get without waiting until it
// completes; plain calls use the same loops. Trials alternate configurations; medians are printed.
//
// Run: npm run bench:tasks (builds, starts a throwaway PostgreSQL; TEST_POSTGRES_URL reuses one).
// Env: BENCH_SECONDS (per trial, default 4), BENCH_TRIALS (default 3), BENCH_CONNECTIONS (default 16).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const TRIALS = Number(process.env.BENCH_TRIALS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SERVE = path.resolve(__dirname, "../../dist/test/e2e/fixtures/serve-task-http.js");
const PROTOCOL = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

interface Config {
  label: string;
  urls: string[];
}

interface Trial {
  plainPerSecond: number;
  tasksPerSecond: number;
  latencies: number[];
  polls: number;
}

const children: ChildProcess[] = [];

function start(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [SERVE], {
    env: { ...process.env, TASK_LEASE_MS: "30000", TASK_RECOVERY_MS: "2000", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`a server exited (code ${code}) before it served`)));
  });
}

let id = 0;
async function rpc(url: string, method: string, params: Record<string, unknown>, capabilities: object): Promise<Record<string, unknown>> {
  const name = method === "tools/call" ? params.name : params.taskId;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": method,
      "mcp-name": String(name),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++id,
      method,
      params: {
        ...params,
        _meta: { "io.modelcontextprotocol/protocolVersion": PROTOCOL, "io.modelcontextprotocol/clientCapabilities": capabilities },
      },
    }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method} answered ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Runs `work` in CONCURRENCY loops for SECONDS; returns how many times it finished. */
async function loops(work: (slot: number) => Promise<void>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, slot) => {
      while (performance.now() < deadline) {
        await work(slot);
        done++;
      }
    }),
  );
  return done;
}

async function trial(config: Config): Promise<Trial> {
  // A modulo of the length: always an index of urls.
  const at = (slot: number, shift = 0) => config.urls[(slot + shift) % config.urls.length]!;
  const plain = await loops(async (slot) => {
    const result = await rpc(at(slot), "tools/call", { name: "quick", arguments: {} }, {});
    if (result.resultType !== "complete") throw new Error(`a plain call answered ${JSON.stringify(result)}`);
  });
  const latencies: number[] = [];
  let polls = 0;
  const tasks = await loops(async (slot) => {
    const began = performance.now();
    const created = await rpc(at(slot), "tools/call", { name: "quick", arguments: {} }, TASKS);
    // Read where it was not created when there are two instances.
    for (;;) {
      polls++;
      const got = await rpc(at(slot, 1), "tasks/get", { taskId: created.taskId }, TASKS);
      if (got.status === "completed") break;
      if (got.status !== "working") throw new Error(`a task ended ${got.status}`);
    }
    latencies.push(performance.now() - began);
  });
  return { plainPerSecond: plain / SECONDS, tasksPerSecond: tasks / SECONDS, latencies, polls: polls / Math.max(1, tasks) };
}

// Only called on the samples of a finished trial (never none).
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function main(): Promise<void> {
  const postgres = process.env.TEST_POSTGRES_URL;
  if (!postgres) throw new Error("TEST_POSTGRES_URL is not set: run `npm run bench:tasks`, which starts a throwaway PostgreSQL");
  const folder = mkdtempSync(path.join(tmpdir(), "roundtrip-task-bench-"));
  try {
    const sqlite = `sqlite:${path.join(folder, "tasks.sqlite")}`;
    const schema = `bench_${process.pid}`;
    const configs: Config[] = [
      { label: "memory, 1 instance", urls: [await start({ TASK_STORE: "memory:" })] },
      { label: "SQLite, 1 instance", urls: [await start({ TASK_STORE: sqlite })] },
      {
        label: "PostgreSQL, 2 instances",
        urls: await Promise.all([0, 1].map(() => start({ TASK_STORE: postgres, TASK_STORE_SCHEMA: schema }))),
      },
    ];
    const cpuList = cpus();
    console.log("roundtrip-mcp task benchmark: create-to-complete throughput over loopback HTTP");
    console.log(`  machine: ${cpuList.length} CPU(s) (${cpuList[0]?.model.trim() ?? "unknown"}), node ${process.version}`);
    console.log(
      `  ${CONCURRENCY} concurrent clients, ${TRIALS} trial(s) of ${SECONDS} s per configuration and mode, medians; tool "quick" (returns at once)`,
    );
    for (const config of configs) await trial({ ...config }); // warm-up: first tasks, JIT, connections
    const results = new Map<string, Trial[]>(configs.map((c) => [c.label, []]));
    for (let t = 0; t < TRIALS; t++) for (const config of configs) results.get(config.label)!.push(await trial(config));
    console.log("");
    console.log(
      `  ${"configuration".padEnd(26)}${"plain calls/s".padStart(15)}${"tasks/s".padStart(10)}${"tasks/plain".padStart(13)}${"task p50 ms".padStart(13)}${"p99 ms".padStart(9)}${"polls/task".padStart(12)}`,
    );
    for (const config of configs) {
      const trials = results.get(config.label)!;
      const plain = median(trials.map((t) => t.plainPerSecond));
      const tasks = median(trials.map((t) => t.tasksPerSecond));
      const latencies = trials.flatMap((t) => t.latencies);
      console.log(
        `  ${config.label.padEnd(26)}${plain!.toFixed(0).padStart(15)}${tasks!.toFixed(0).padStart(10)}${(tasks! / plain!).toFixed(2).padStart(13)}` +
          `${percentile(latencies, 0.5).toFixed(1).padStart(13)}${percentile(latencies, 0.99).toFixed(1).padStart(9)}${median(
            trials.map((t) => t.polls),
          )
            .toFixed(1)
            .padStart(12)}`,
      );
    }
    console.log("\n  A task costs a create (a durable write) before the reply, then the worker's writes (complete),");
    console.log("  and the client's polls; a plain call writes nothing. tasks/plain is the price of durability.");
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((resolve) => c.once("exit", resolve)) : undefined)));
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`task benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  for (const child of children) child.kill("SIGKILL");
  process.exit(1);
});
