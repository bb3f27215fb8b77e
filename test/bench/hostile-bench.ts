// Hostile-request benchmark (not a test; `npm run bench:hostile`): what the largest and most
// awkward requests that fit the default limits (DEFAULT_REQUEST_LIMITS) cost the server, against an ordinary request
// measured in the same run. The server (test/bench/servers/hostile-server.ts) runs in its own
// process and reports its own CPU time over IPC, so the client's work is not counted. For each
// request: the server CPU per request (median and max of the trials), and how long an ordinary
// request sent right after it (once its body is on the wire) waits beyond its usual latency.
// Targets: every request under the default body cap costs under 50 ms of server CPU, and delays
// an ordinary request by no more than 50 ms. Requests over a limit are measured too: their
// refusal must be cheaper still.
//
// Run: npm run bench:hostile   Env: BENCH_TRIALS (per request, default 7).
// Exit code 0 whether or not a target is met; 1 when the benchmark cannot run.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { DEFAULT_REQUEST_LIMITS } from "../../src/index";

const TRIALS = Math.max(1, Number(process.env.BENCH_TRIALS ?? "7"));
const TARGET_CPU_MS = 50;
const TARGET_DELAY_MS = 50;
const ROOT = resolve(__dirname, "..", "..");
const TS_NODE = require.resolve("ts-node/register/transpile-only", { paths: [ROOT] });
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

interface Case {
  readonly label: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** Under the default limits (held to the targets), or over one (refused). */
  readonly over?: boolean;
}

function keys(count: number, prefix = "k"): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < count; i++) out[`${prefix}${i}`] = i;
  return out;
}

function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

function rpc(method: string, params: Record<string, unknown>, name?: string, text?: string): Omit<Case, "label"> {
  const body = text ?? JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: ENVELOPE, ...params } });
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name && { "mcp-name": name }),
  };
  return { body, headers };
}

const call = (tool: string, args: unknown) => rpc("tools/call", { name: tool, arguments: args }, tool);
const ORDINARY = call("add", { a: 1, b: 2 });
const L = DEFAULT_REQUEST_LIMITS;

/** The largest requests of each shape that fit the default limits, then some over them. */
function cases(): Case[] {
  // Room for the envelope's own keys, values and bytes.
  const keysLeft = L.maxKeys - 20;
  const bytesLeft = L.maxBodyBytes - 600;
  const lines = Array.from({ length: Math.floor(keysLeft / 2) }, (_, i) => ({ sku: `s${i}`, qty: 1 }));
  const perObject = Math.min(L.maxObjectKeys - 1, keysLeft);
  const objects = Object.fromEntries(Array.from({ length: Math.floor(keysLeft / (perObject + 1)) }, (_, i) => [`o${i}`, keys(perObject)]));
  const objectKeys = Object.keys(objects).length * (perObject + 1);
  const padded = ORDINARY.body.replace('"id":1', `"id":1${" ".repeat(L.maxBodyBytes - ORDINARY.body.length - 100)}`);
  const digits = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":${JSON.stringify(ENVELOPE)},"name":"ask","arguments":{"n":${"7".repeat(bytesLeft)}}}}`;
  const tinyKeys = (count: number) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(",")}}}}`;
  const items = Math.min(L.maxArrayItems - 10, Math.floor(bytesLeft / 2) - L.maxObjectKeys * 12);
  return [
    { label: `_meta with ${L.maxObjectKeys} keys`, ...rpc("tools/list", { _meta: { ...ENVELOPE, ...keys(L.maxObjectKeys - 3) } }) },
    { label: `DTO: ${lines.length} nested order lines`, ...call("order", { customer: "c", lines }) },
    { label: `DTO: free-form objects, ${objectKeys} keys`, ...call("tag", { name: "n", meta: objects }) },
    {
      label: `raw schema: ${L.maxObjectKeys - 1} keys + ${items} items`,
      ...call("raw", { m: keys(L.maxObjectKeys - 1), a: new Array(items).fill(1) }),
    },
    { label: `@Elicit round sealing ${objectKeys} keys`, ...call("ask", objects) },
    {
      label: `prompt with ${L.maxObjectKeys - 5} argument keys`,
      ...rpc(
        "prompts/get",
        { name: "review", arguments: Object.fromEntries(Array.from({ length: L.maxObjectKeys - 5 }, (_, i) => [`a${i}`, "x"])) },
        "review",
      ),
    },
    { label: `depth ${L.maxDepth - 2} in tool arguments`, ...call("ask", { x: nested(L.maxDepth - 6) }) },
    { label: "@Elicit round sealing one string, body cap", ...call("ask", { s: "s".repeat(Math.min(L.maxStringLength, bytesLeft)) }) },
    { label: "escaped string filling the body cap", ...call("ask", { s: '"'.repeat(Math.floor(bytesLeft / 2)) }) },
    { label: "a number filling the body cap", ...rpc("tools/call", {}, "ask", digits) },
    { label: "whitespace filling the body cap", ...rpc("tools/call", {}, "add", padded) },
    {
      label: "over: _meta of tiny keys filling the body cap",
      over: true,
      ...rpc("tools/list", {}, undefined, tinyKeys(Math.floor(bytesLeft / 11))),
    },
    { label: "over: 4 MB body (refused, drained)", over: true, ...rpc("tools/list", {}, undefined, tinyKeys(350_000)) },
    { label: "over: depth 2,000", over: true, ...call("ask", { x: nested(2_000) }) },
    {
      label: `over: ${lines.length + 100} order lines (maxKeys)`,
      over: true,
      ...call("order", { customer: "c", lines: [...lines, ...lines.slice(0, 100)] }),
    },
  ];
}

// ---- server ----

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["-r", TS_NODE, resolve(__dirname, "servers", "hostile-server.ts")], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit", "ipc"],
  });
  return new Promise((resolveStart, rejectStart) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolveStart({ child, url: line.trim() }));
    child.once("exit", (code) => rejectStart(new Error(`hostile-server exited before it was ready (code ${code})`)));
  });
}

function serverCpuMs(child: ChildProcess): Promise<number> {
  return new Promise((resolveCpu) => {
    child.once("message", (usage) => resolveCpu(((usage as NodeJS.CpuUsage).user + (usage as NodeJS.CpuUsage).system) / 1000));
    child.send("cpu");
  });
}

// ---- client ----

const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];

/** Sends one request; resolves with the status, the start of the body and the latency. `written` fires once the body is on the wire. */
function post(
  url: string,
  c: { body: string; headers: Record<string, string> },
  agent: Agent,
  written?: () => void,
): Promise<{ status: number; answer: string; ms: number }> {
  return new Promise((resolvePost, rejectPost) => {
    const started = process.hrtime.bigint();
    const body = Buffer.from(c.body, "utf8");
    const req = request(url, { method: "POST", headers: { ...c.headers, "content-length": String(body.length) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolvePost({
          status: res.statusCode ?? 0,
          answer: Buffer.concat(chunks).toString("utf8"),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on("error", rejectPost);
    req.end(body, written);
  });
}

function summary(text: string, status: number): string {
  try {
    const message = JSON.parse(text) as { result?: { isError?: boolean }; error?: { code: number; data?: { limit?: string } } };
    if (message.error) return `${status} ${message.error.code}${message.error.data?.limit ? ` ${message.error.data.limit}` : ""}`;
    return `${status} ${message.result?.isError ? "isError" : "result"}`;
  } catch {
    return `${status} (not JSON)`;
  }
}

// Only called on the samples just taken (never none).
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => n.toFixed(1).padStart(6);

async function main(): Promise<void> {
  const { child, url } = await startServer();
  try {
    for (let i = 0; i < 200; i++) await post(url, ORDINARY, agents[1]!);
    const solo: number[] = [];
    const before = await serverCpuMs(child);
    for (let i = 0; i < 100; i++) solo.push((await post(url, ORDINARY, agents[1]!)).ms);
    const referenceCpu = ((await serverCpuMs(child)) - before) / 100;
    const soloLatency = median(solo);
    console.log(
      `hostile-request benchmark: ${TRIALS} trials per request; targets: server CPU < ${TARGET_CPU_MS} ms, ordinary request delayed <= ${TARGET_DELAY_MS} ms`,
    );
    console.log(
      `reference (ordinary tools/call, same run): ${referenceCpu.toFixed(2)} ms server CPU, ${soloLatency.toFixed(2)} ms latency\n`,
    );
    console.log(
      `${"request".padEnd(46)} ${"bytes".padStart(9)}  ${"answer".padEnd(22)} ${"CPU med".padStart(7)} ${"max".padStart(6)} ${"x ref".padStart(6)}  ${"delay med".padStart(9)} ${"max".padStart(6)}  verdict`,
    );
    let worstCpu = 0;
    let worstDelay = 0;
    for (const c of cases()) {
      await post(url, c, agents[0]!);
      const cpu: number[] = [];
      const delay: number[] = [];
      let answer = "";
      for (let t = 0; t < TRIALS; t++) {
        const start = await serverCpuMs(child);
        const out = await post(url, c, agents[0]!);
        cpu.push((await serverCpuMs(child)) - start);
        answer = summary(out.answer, out.status);
        // The ordinary request goes once the hostile body is on the wire: it waits for whatever the server does with it.
        // (A refused body may be answered before it is all written: then it goes with the answer.)
        let ordinary: Promise<{ ms: number }> | undefined;
        const startOrdinary = () => (ordinary ??= post(url, ORDINARY, agents[1]!));
        await post(url, c, agents[0]!, startOrdinary);
        delay.push(Math.max(0, (await startOrdinary()).ms - soloLatency));
      }
      const ok = median(cpu) < TARGET_CPU_MS && median(delay) <= TARGET_DELAY_MS;
      if (!c.over) {
        worstCpu = Math.max(worstCpu, median(cpu));
        worstDelay = Math.max(worstDelay, median(delay));
      }
      console.log(
        `${c.label.padEnd(46)} ${String(Buffer.byteLength(c.body)).padStart(9)}  ${answer.padEnd(22)} ${fmt(median(cpu))} ${fmt(Math.max(...cpu))} ${(median(cpu) / referenceCpu).toFixed(0).padStart(6)}  ${fmt(median(delay)).padStart(9)} ${fmt(Math.max(...delay))}  ${ok ? "ok" : "OVER TARGET"}`,
      );
    }
    console.log(
      `\nworst under the limits: ${worstCpu.toFixed(1)} ms server CPU (target < ${TARGET_CPU_MS}), ordinary request delayed ${worstDelay.toFixed(1)} ms (target <= ${TARGET_DELAY_MS})`,
    );
  } finally {
    for (const agent of agents) agent.destroy();
    child.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
