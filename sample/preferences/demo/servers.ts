// Starts the compiled sample as a child process and connects the official client to it:
// over stdio (the client's StdioClientTransport spawns main-stdio.js) and over HTTP (main-http.js
// with PORT=0 prints its loopback URL). Both children run the compiled build, so what is checked
// is what `npm run build` produced (or the build ROUNDTRIP_MCP_DIST names).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { WireRecorder } from "./wire-recorder";

export type TransportName = "stdio" | "http";

export interface Connection {
  transport: TransportName;
  /** What serves this connection, for the transcript. */
  served: string;
  client: Client;
  recorder: WireRecorder;
  /** Everything the child wrote to stderr so far (diagnostics; stdout is MCP on stdio). */
  stderr(): string;
  close(): Promise<void>;
}

export interface ServerLaunch {
  /** Directory holding the compiled sample (main-stdio.js, main-http.js). */
  sampleDir: string;
  /** Extra node arguments for the child (the framework-override preload, when selected). */
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
}

const START_TIMEOUT_MS = 15_000;

/** A 2026-07-28 client in manual MRTR mode that can answer form and URL elicitations. */
function manualClient(): Client {
  return new Client(
    { name: "roundtrip-mcp-demo", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      inputRequired: { autoFulfill: false },
    },
  );
}

async function connectClient(transport: Transport): Promise<{ client: Client; recorder: WireRecorder }> {
  const client = manualClient();
  const recorder = new WireRecorder(transport);
  await client.connect(recorder);
  return { client, recorder };
}

function relative(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

export async function connectStdio(launch: ServerLaunch): Promise<Connection> {
  const entry = path.join(launch.sampleDir, "main-stdio.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...launch.nodeArgs, entry],
    env: launch.env as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const { client, recorder } = await connectClient(transport);
  return {
    transport: "stdio",
    served: `node ${relative(entry)} (child process, stdio)`,
    client,
    recorder,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

function waitForUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(
      () => reject(new Error(`the HTTP server printed no URL within ${START_TIMEOUT_MS / 1000} s\n${stderr()}`)),
      START_TIMEOUT_MS,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!); // group 1 is not optional
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the HTTP server exited (${signal ?? `code ${code}`}) before listening\n${stderr()}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function connectHttp(launch: ServerLaunch): Promise<Connection> {
  const entry = path.join(launch.sampleDir, "main-http.js");
  const child = spawn(process.execPath, [...launch.nodeArgs, entry], {
    env: { ...launch.env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A listener outlives its parent; make sure it does not when the demo ends early.
  const killOnExit = (): void => void child.kill();
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const url = await waitForUrl(child, () => stderr);
    const { client, recorder } = await connectClient(new StreamableHTTPClientTransport(new URL(url)));
    return {
      transport: "http",
      served: `node ${relative(entry)} (child process, PORT=0) at ${url}`,
      client,
      recorder,
      stderr: () => stderr,
      close: async () => {
        await client.close().catch(() => undefined);
        await stopChild(child);
      },
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
