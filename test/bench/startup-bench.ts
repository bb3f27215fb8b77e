/*
 * Stdio startup: the time from spawn to the first `server/discover` answer on stdout, for the
 * preferences sample's stdio entry (dist/sample/preferences/main-stdio.js) beside two tools on the
 * official SDK's McpServer served with its serveStdio (dist/test/bench/servers/sdk-stdio-server.js),
 * and a bare `node -e 0` for context. Hosts give a server about 0.6 s to answer `server/discover`
 * before they fall back to `initialize` (issue 24); the target is the sample at most 1.2 times the
 * SDK server's time. Each server then gets a tools/list and a tools/call (sent as each answer
 * arrives, as a host does), and the time from spawn to the tools/call answer is printed too: what
 * the first answer left for later (loading the SDK, compiling schemas) must not just move there.
 *
 *   npm run bench:startup            (builds first)
 *   BENCH_STARTUP_RUNS=21 npm run bench:startup
 *
 * The servers are spawned alternately (sample, SDK, bare, sample, ...) so a noisy machine slows
 * both alike; the median of each is printed with its range, and the ratio of the medians.
 * The request is written to stdin right after spawn, as a host does: the time includes loading
 * every module the first answer needs. Compiled JavaScript only, no ts-node in the children.
 *
 * Exit code 0 whether or not the target is met.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import * as path from "node:path";
import { existsSync } from "node:fs";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
const TARGET_RATIO = 1.2;
const ROOT = path.resolve(__dirname, "../..");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const line = (id: number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }) + "\n";
const DISCOVER = line(1, "server/discover");
const LIST = line(2, "tools/list");

interface Subject {
  readonly name: string;
  readonly args: readonly string[];
  /** Whether the first stdout line must be a server/discover result (false: the process just exits). */
  readonly answers: boolean;
  /** The tools/call sent after tools/list (a tool of this server), when it answers. */
  readonly call?: string;
}

/** Milliseconds from spawn to the discover answer and to the tools/call answer (both the exit time for the bare process). */
interface Times {
  readonly discover: number;
  readonly call: number;
}

const SUBJECTS: readonly Subject[] = [
  {
    name: "preferences sample (roundtrip-mcp)",
    args: [path.join(ROOT, "dist/sample/preferences/main-stdio.js")],
    answers: true,
    // The first round of a state-only continuation: an input_required answer, sealed state included.
    call: line(3, "tools/call", { name: "reset_preferences", arguments: {} }),
  },
  {
    name: "SDK McpServer + serveStdio",
    args: [path.join(ROOT, "dist/test/bench/servers/sdk-stdio-server.js")],
    answers: true,
    call: line(3, "tools/call", { name: "add", arguments: { a: 1, b: 2 } }),
  },
  { name: "bare node -e 0 (to exit)", args: ["-e", "0"], answers: false },
];

/** Milliseconds from spawn to the answers (or to exit, for the bare process). */
function once(subject: Subject): Promise<Times> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, subject.args, {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let stdout = "";
    let stderr = "";
    let done = false;
    let discovered: number | undefined;
    const finish = (error: Error | undefined, times?: Times) => {
      if (done) return;
      done = true;
      child.stdin.end();
      child.kill("SIGTERM");
      if (error) reject(error);
      else resolve(times as Times);
    };
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      for (let newline = stdout.indexOf("\n"); newline >= 0 && !done; newline = stdout.indexOf("\n")) {
        const ms = elapsed();
        const text = stdout.slice(0, newline);
        stdout = stdout.slice(newline + 1);
        let answer: { id?: unknown; result?: unknown } | undefined;
        try {
          answer = JSON.parse(text) as { id?: unknown; result?: unknown };
        } catch {
          answer = undefined;
        }
        const expected = discovered === undefined ? 1 : answer?.id === 2 ? 2 : 3;
        if (answer?.id !== expected || answer.result === undefined) {
          finish(new Error(`${subject.name}: line ${text.slice(0, 300)} is not the result of request ${expected}`));
        } else if (expected === 1) {
          discovered = ms;
          child.stdin.write(LIST);
        } else if (expected === 2) {
          child.stdin.write(subject.call as string);
        } else {
          finish(undefined, { discover: discovered as number, call: ms });
        }
      }
    });
    child.on("error", (error) => finish(error));
    child.on("exit", (code) => {
      if (!subject.answers) finish(undefined, { discover: elapsed(), call: elapsed() });
      else finish(new Error(`${subject.name} exited (${code}) before answering; stderr: ${stderr.slice(0, 500)}`));
    });
    if (subject.answers) child.stdin.write(DISCOVER);
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  for (const subject of SUBJECTS) {
    const script = subject.args[0] as string;
    if (subject.answers && !existsSync(script))
      throw new Error(`${script} is missing: run npm run build first (npm run bench:startup does)`);
  }
  // One warm-up of each (the file system cache), not counted.
  for (const subject of SUBJECTS) await once(subject);
  const times = SUBJECTS.map(() => [] as Times[]);
  for (let run = 0; run < RUNS; run++) {
    for (const [i, subject] of SUBJECTS.entries()) (times[i] as Times[]).push(await once(subject));
  }
  const [load1] = loadavg();
  console.log(`stdio startup: ${RUNS} alternating runs, Node ${process.version}, load ${load1?.toFixed(2)}`);
  for (const what of ["discover", "call"] as const) {
    console.log(
      what === "discover"
        ? "spawn to the first server/discover answer:"
        : "spawn to the first tools/call answer (after discover and tools/list; bare: to exit):",
    );
    const medians = times.map((t) => median(t.map((x) => x[what])));
    for (const [i, subject] of SUBJECTS.entries()) {
      const t = (times[i] as Times[]).map((x) => x[what]);
      console.log(
        `  ${subject.name.padEnd(38)} median ${(medians[i] as number).toFixed(1).padStart(7)} ms  (range ${Math.min(...t).toFixed(1)} to ${Math.max(...t).toFixed(1)})`,
      );
    }
    const ratio = (medians[0] as number) / (medians[1] as number);
    console.log(
      what === "discover"
        ? `  sample / SDK server: ${ratio.toFixed(2)} (target at most ${TARGET_RATIO}): ${ratio <= TARGET_RATIO ? "met" : "MISSED"}`
        : `  sample / SDK server: ${ratio.toFixed(2)} (no target: shows where the deferred cost went)`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
