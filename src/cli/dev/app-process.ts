// One run of the app as a child process: its output passed through, the first URL it prints
// noticed, and a stop that waits for it to exit (SIGTERM, then SIGKILL after `killAfterMs`).
import { spawn, type ChildProcess } from "node:child_process";

const URL_IN_OUTPUT = /(https?:\/\/[^\s"'<>]+)/;

export interface AppProcessOptions {
  readonly script: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Called once with the first http(s) URL the app prints. */
  readonly onUrl: (url: string) => void;
  /** Called when the app exits by itself (not stopped). */
  readonly onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export class AppProcess {
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  private stopping = false;
  private seen = "";

  constructor(options: AppProcessOptions) {
    this.child = spawn(process.execPath, [options.script, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let found = false;
    const read = (to: NodeJS.WritableStream) => (chunk: Buffer) => {
      to.write(chunk);
      if (found) return;
      this.seen = (this.seen + chunk.toString()).slice(-4096);
      const match = URL_IN_OUTPUT.exec(this.seen);
      if (match) {
        found = true;
        options.onUrl(match[1]!);
      }
    };
    this.child.stdout!.on("data", read(options.stdout));
    this.child.stderr!.on("data", read(options.stderr));
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        if (!this.stopping) options.onExit(code, signal);
        resolve();
      });
      this.child.once("error", (error) => {
        options.stderr.write(`roundtrip-mcp dev: could not start ${options.script}: ${error.message}\n`);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(killAfterMs = 5000): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), killAfterMs);
      await this.exited;
      clearTimeout(timer);
    }
    await this.exited;
  }
}
