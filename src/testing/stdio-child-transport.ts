import { spawn, type ChildProcess } from "node:child_process";
import type { MessageTransport } from "./message-channel";
import type { JsonRpcNotification, JsonRpcRequest } from "./wire-messages";

/**
 * The server process to spawn for the stdio boundary.
 *
 * @example const server: StdioServerCommand = { command: process.execPath, args: ["dist/sample/preferences/main-stdio.js"] };
 */
export interface StdioServerCommand {
  command: string;
  args?: string[];
  /** Added to this process's environment (a variable set to undefined is removed). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** "pipe" (default) keeps the server's stderr for error messages; "inherit" shows it. */
  stderr?: "pipe" | "inherit";
}

const STDERR_TAIL = 4096;
const EXIT_GRACE_MS = 2000;

/**
 * A child process speaking newline-delimited JSON-RPC on stdin/stdout (DIGEST §5.2). Lines on
 * stdout that are not JSON are handed to `onmessage` as `{ unparsable: line }`, so a test can see
 * that the server wrote something other than MCP messages.
 */
export class StdioChildTransport implements MessageTransport {
  private child: ChildProcess | undefined;
  private buffer = "";
  private stderrTail = "";
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private exited: Promise<void> | undefined;
  onmessage?(message: unknown): void;
  onclose?(): void;
  onerror?(error: Error): void;

  constructor(private readonly server: StdioServerCommand) {}

  async start(): Promise<void> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...process.env, ...this.server.env })) if (value !== undefined) env[name] = value;
    const child = spawn(this.server.command, this.server.args ?? [], {
      env,
      cwd: this.server.cwd,
      stdio: ["pipe", "pipe", this.server.stderr === "inherit" ? "inherit" : "pipe"],
    });
    this.child = child;
    this.exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    child.on("error", (error) => this.onerror?.(error));
    child.stdin!.on("error", (error) => this.onerror?.(error));
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.read(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
    });
    // "close" comes after stdout is drained, so every message is delivered before the end.
    child.once("close", () => this.onclose?.());
  }

  async send(message: JsonRpcRequest | JsonRpcNotification): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) throw new Error(`cannot write to the stdio server${this.describeEnd()}`);
    await new Promise<void>((resolve, reject) =>
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Closes stdin and waits for the exit; SIGTERM then SIGKILL if the server lingers (DIGEST §5.2). */
  async close(): Promise<void> {
    const child = this.child;
    // No pid: the spawn itself failed, so there is nothing to wait for.
    if (!child || this.exit || child.pid === undefined) return;
    child.stdin?.end();
    if (await this.waitExit(EXIT_GRACE_MS)) return;
    child.kill("SIGTERM");
    if (await this.waitExit(EXIT_GRACE_MS)) return;
    child.kill("SIGKILL");
    await this.exited;
  }

  /** " (exited with code 1; stderr: ...)" once the child has ended, else "". */
  describeEnd(): string {
    if (!this.exit) return "";
    const how = this.exit.signal ? `signal ${this.exit.signal}` : `code ${this.exit.code}`;
    const stderr = this.stderrTail.trim();
    return ` (server exited with ${how}${stderr ? `; stderr: ${stderr}` : ""})`;
  }

  /** The last few KB the server wrote to stderr (when piped). */
  get stderr(): string {
    return this.stderrTail;
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, "");
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        message = { unparsable: line };
      }
      this.onmessage?.(message);
    }
  }

  private waitExit(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      void this.exited!.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
