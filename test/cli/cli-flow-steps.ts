// The steps of the command line's CI flow (run-cli-flow.ts): commands run in a folder, each
// printed with its time; a child process watched for a line; free ports.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";

export class FlowFailure extends Error {}

/** The environment of the app's commands: ours, without what `npm run` set for this package. */
export const APP_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));

/** Runs a command to its end; returns what it printed (stdout, then stderr), or its stdout alone. */
export function run(
  label: string,
  cwd: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = APP_ENV,
  stdoutOnly = false,
): string {
  const started = Date.now();
  console.log(`\n== ${label}: ${command} ${args.join(" ")}  (in ${cwd})`);
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  process.stdout.write(output.length > 6000 ? `${output.slice(0, 3000)}\n...\n${output.slice(-3000)}` : output);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) throw new FlowFailure(`${label} failed (exit ${result.status ?? result.signal}) after ${seconds} s`);
  console.log(`== ${label}: ok in ${seconds} s`);
  return stdoutOnly ? (result.stdout ?? "") : output;
}

/** A child whose output is kept, with a wait for the next match of a pattern after a point. */
export class Watched {
  readonly child: ChildProcess;
  output = "";

  constructor(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      process.stdout.write(chunk);
    };
    this.child.stdout!.on("data", keep);
    this.child.stderr!.on("data", keep);
  }

  async waitFor(pattern: RegExp, from: number, timeoutMs: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output.slice(from));
      if (match) return match;
      if (this.child.exitCode !== null) throw new FlowFailure(`the process exited (${this.child.exitCode}) before printing ${pattern}`);
      if (Date.now() > deadline) throw new FlowFailure(`no ${pattern} within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGINT to the group (as Ctrl-C does); resolves with the exit code. */
  async interrupt(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    process.kill(-this.child.pid!, "SIGINT");
    return exited;
  }
}
