// The HTTP benchmark's server processes: each benchmark server (test/bench/servers) runs as
// compiled JavaScript from dist/ in a child process of its own, not under ts-node (which loads
// node's `domain` module and so slows every EventEmitter in the process; users run compiled
// JavaScript). A server prints its URL on its first stdout line; stdin is its lifeline (it exits
// when stdin ends) and carries line commands, each answered with one JSON line on stdout.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpus } from "node:os";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

const ROOT = resolve(__dirname, "..", "..");
const COMPILED = resolve(ROOT, "dist", "test", "bench", "servers");
const STARTUP_TIMEOUT_MS = 120_000;
const COMMAND_TIMEOUT_MS = 30_000;

export interface ServerSpec {
  readonly label: string;
  /** The server's file name in test/bench/servers, without extension. */
  readonly name: string;
  readonly env: Record<string, string>;
  /** Run under `node --cpu-prof`, profiles into this folder. */
  readonly cpuProfileDir?: string;
  /** Another checkout whose build (its dist/) runs this server instead of this one's: the code before a change (BENCH_BASELINE). */
  readonly checkout?: string;
}

export interface RunningServer {
  readonly spec: ServerSpec;
  readonly child: ChildProcess;
  readonly url: string;
  /** HTTP responses this server has sent to the benchmark's load generator so far. */
  responses: number;
  /** Sends one line command on stdin and resolves with the JSON line it answers. */
  command(line: string): Promise<Record<string, unknown>>;
}

const children = new Set<ChildProcess>();

/**
 * The compiled server. `npm run bench` builds first; run alone, the benchmark measures the last
 * build. A `checkout` (another clone or worktree) must have been built in it.
 */
function compiledServer(name: string, checkout?: string): string {
  const compiled =
    checkout === undefined ? resolve(COMPILED, `${name}.js`) : resolve(checkout, "dist", "test", "bench", "servers", `${name}.js`);
  if (!existsSync(compiled))
    throw new Error(
      `${compiled} is missing: run \`npm run build\` first${checkout === undefined ? " (`npm run bench` does)" : ` in ${checkout}`}`,
    );
  return compiled;
}

/**
 * The CPUs the benchmark pins itself and its servers to, when BENCH_PIN is not "off", the machine
 * has at least two CPUs and `taskset` (util-linux) is there: the load generator (this process) on
 * the first, every server on the second, the ceiling and the app alike, so that the load
 * generator and the server under test never share a core. Unpinned, one server's trials in one run
 * split into a fast and a slow group (126 against 180 µs of CPU per call).
 */
export const pinning: { readonly generator: string; readonly servers: string } | undefined = (() => {
  if (process.env.BENCH_PIN === "off" || process.platform !== "linux" || cpus().length < 2) return undefined;
  try {
    // -a: every thread of this process (libuv's pool included).
    execFileSync("taskset", ["-a", "-cp", "0", String(process.pid)], { stdio: "ignore" });
    return { generator: "0", servers: "1" };
  } catch {
    return undefined;
  }
})();

/**
 * Node (and V8) flags every server runs with, from BENCH_NODE_FLAGS (space-separated): the same
 * for the app, the ceiling and the SDK server. Default none: Node's defaults.
 */
export const NODE_FLAGS: readonly string[] = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter((flag) => flag !== "");

export function startServer(spec: ServerSpec): Promise<RunningServer> {
  const file = compiledServer(spec.name, spec.checkout);
  const nodeArgs = [...NODE_FLAGS, ...(spec.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${spec.cpuProfileDir}`] : [])];
  // taskset execs node in place: the child's pid stays the server's (its CPU time is read from /proc).
  const [program, args] = pinning
    ? ["taskset", ["-c", pinning.servers, process.execPath, ...nodeArgs, file]]
    : [process.execPath, [...nodeArgs, file]];
  const child = spawn(program, args, {
    cwd: spec.checkout ?? ROOT,
    env: { ...process.env, ...spec.env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const nextLine = (timeoutMs: number, what: string) =>
    new Promise<string>((resolveLine, rejectLine) => {
      const timer = setTimeout(() => rejectLine(new Error(`${spec.label}: no ${what} within ${timeoutMs / 1000} s`)), timeoutMs);
      const onExit = (code: number | null, signal: string | null) => {
        clearTimeout(timer);
        rejectLine(new Error(`${spec.label}: server exited while the benchmark waited for ${what} (code ${code}, signal ${signal})`));
      };
      child.once("exit", onExit);
      waiting.push((line) => {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolveLine(line);
      });
    });
  let queue: Promise<unknown> = Promise.resolve();
  const command = (line: string): Promise<Record<string, unknown>> => {
    // One command at a time: answers come back in order, one line each.
    const answer = queue.then(async () => {
      const reply = nextLine(COMMAND_TIMEOUT_MS, `answer to "${line}"`);
      child.stdin!.write(`${line}\n`);
      const text = await reply;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${spec.label}: answer to "${line}" is not JSON: ${text.slice(0, 200)}`);
      }
      if (typeof parsed !== "object" || parsed === null || "error" in parsed)
        throw new Error(`${spec.label}: "${line}" failed: ${text.slice(0, 200)}`);
      return parsed as Record<string, unknown>;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };
  return new Promise<RunningServer>((resolveStart, rejectStart) => {
    child.once("error", rejectStart);
    nextLine(STARTUP_TIMEOUT_MS, "URL").then((line) => {
      const url = line.trim();
      if (!/^http:\/\/\S+$/.test(url)) rejectStart(new Error(`${spec.label}: expected a URL on the first stdout line, got "${line}"`));
      else resolveStart({ spec, child, url, responses: 0, command });
    }, rejectStart);
  });
}

/** Ends every server: SIGTERM, then SIGKILL after 10 s. */
export async function stopAllServers(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((done) => {
          const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
          child.once("exit", () => {
            clearTimeout(force);
            done();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}

/** CPU seconds (user + system) a process has used, from /proc; undefined where unavailable. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
