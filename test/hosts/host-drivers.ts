/**
 * Drives each host's CLI headless through one tool call (run-hosts.ts runs them). Every driver
 * answers the questions the host hands it: a form with the first choice of each field, a URL
 * question with consent. What each host is and how it is steered is in docs/hosts.md.
 */
import { spawn } from "node:child_process";
import * as readline from "node:readline";

type Json = Record<string, unknown>;

export interface Answered {
  readonly mode: string;
  readonly action: string;
}

/** What one driven turn saw: the questions answered and the host's own last words. */
export interface Turn {
  readonly answered: Answered[];
  readonly final: string;
}

const TURN_TIMEOUT_MS = 180_000;

/** The content a form question is answered with: each field's first choice. */
export function firstChoices(schema: unknown): Json {
  const content: Json = {};
  const properties = ((schema as Json | undefined)?.properties ?? {}) as Record<string, Json>;
  for (const [key, p] of Object.entries(properties)) {
    if (Array.isArray(p.oneOf)) content[key] = (p.oneOf[0] as Json).const;
    else if (Array.isArray(p.enum)) content[key] = p.enum[0];
    else if (p.type === "boolean") content[key] = true;
    else if (p.type === "number" || p.type === "integer") content[key] = p.minimum ?? 1;
    else content[key] = p.default ?? "x";
  }
  return content;
}

/** Spawns `command`, writes the lines `talk` sends, hands it each stdout line; resolves when `talk` says done. */
function converse(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  talk: (line: Json, send: (m: Json) => void, done: (final: string) => void) => void,
  start: (send: (m: Json) => void) => void,
): Promise<string> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr = (stderr + c.toString("utf8")).slice(-4000)));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`${command} did not finish in ${TURN_TIMEOUT_MS} ms; its stderr ended: ${stderr}`)),
      TURN_TIMEOUT_MS,
    );
    let settled = false;
    const finish = (outcome: Error | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGTERM");
      if (typeof outcome === "string") resolve(outcome);
      else reject(outcome);
    };
    const send = (m: Json) => child.stdin.write(`${JSON.stringify(m)}\n`);
    child.on("exit", (code) => finish(new Error(`${command} exited (${code}) before the turn ended; its stderr ended: ${stderr}`)));
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      let message: Json;
      try {
        message = JSON.parse(line) as Json;
      } catch {
        return;
      }
      talk(message, send, (final) => finish(final));
    });
    start(send);
  });
}

/**
 * Codex: `codex app-server` over its JSON-RPC stdio. `initialize`, `thread/start` (approval policy
 * on-request: under "never" Codex declines every question itself), `turn/start`; each question is
 * the server request `mcpServer/elicitation/request`; the turn ends at `turn/completed`.
 */
export async function driveCodex(bin: string, cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<Turn> {
  const answered: Answered[] = [];
  let next = 1;
  const pending = new Map<number, (result: Json) => void>();
  const request = (send: (m: Json) => void, method: string, params: Json, then: (result: Json) => void) => {
    const id = next++;
    pending.set(id, then);
    send({ id, method, params });
  };
  const final = await converse(
    bin,
    ["app-server"],
    { cwd, env },
    (m, send, done) => {
      if (m.id !== undefined && m.method === undefined) {
        const then = pending.get(m.id as number);
        pending.delete(m.id as number);
        if (m.error) done(`error: ${JSON.stringify(m.error)}`);
        else then?.(m.result as Json);
        return;
      }
      if (m.id !== undefined && m.method === "mcpServer/elicitation/request") {
        const p = m.params as Json;
        const result =
          p.mode === "url"
            ? { action: "accept", content: null, _meta: null }
            : { action: "accept", content: firstChoices(p.requestedSchema), _meta: null };
        answered.push({ mode: String(p.mode), action: result.action });
        send({ id: m.id, result });
        return;
      }
      if (m.id !== undefined && m.method !== undefined) send({ id: m.id, error: { code: -32601, message: "not handled by the driver" } });
      if (m.method === "turn/completed") done(JSON.stringify((m.params as Json).turn ?? {}));
    },
    (send) =>
      request(
        send,
        "initialize",
        {
          clientInfo: { name: "roundtrip-host-driver", title: null, version: "1.0.0" },
          capabilities: { experimentalApi: true, requestAttestation: false },
        },
        () => {
          send({ method: "initialized" });
          request(send, "thread/start", { cwd, approvalPolicy: "on-request", sandbox: "read-only" }, (thread) => {
            const threadId = (thread.thread as Json).id;
            // The thread's MCP servers start in the background: the turn starts once they are listed,
            // so the model's first request offers their tools.
            request(send, "mcpServerStatus/list", { threadId }, () =>
              request(send, "turn/start", { threadId, input: [{ type: "text", text: prompt, text_elements: [] }] }, () => undefined),
            );
          });
        },
      ),
  );
  return { answered, final };
}

/**
 * Claude Code: `claude -p` with stream-json in and out, as an Agent SDK host. Each question is a
 * `control_request` of subtype "elicitation", answered with a `control_response`; the turn ends at
 * the `result` message.
 */
export async function driveClaude(bin: string, cwd: string, env: NodeJS.ProcessEnv, prompt: string, args: string[]): Promise<Turn> {
  const answered: Answered[] = [];
  const final = await converse(
    bin,
    ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", ...args],
    { cwd, env },
    (m, send, done) => {
      if (m.type === "control_request") {
        const r = m.request as Json;
        if (r.subtype === "elicitation") {
          const response = r.mode === "url" ? { action: "accept" } : { action: "accept", content: firstChoices(r.requested_schema) };
          answered.push({ mode: String(r.mode ?? "form"), action: response.action });
          send({ type: "control_response", response: { subtype: "success", request_id: m.request_id, response } });
        } else
          send({
            type: "control_response",
            response: { subtype: "error", request_id: m.request_id, error: `not handled: ${String(r.subtype)}` },
          });
        return;
      }
      if (m.type === "result") done(String(m.result ?? ""));
    },
    (send) => send({ type: "user", message: { role: "user", content: prompt }, parent_tool_use_id: null, session_id: "" }),
  );
  return { answered, final };
}

/** Gemini CLI: `gemini -p` in a trusted session with tool calls approved; the tool's outcome as it reported it. */
export async function driveGemini(bin: string, cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<Turn> {
  const final = await converse(
    bin,
    ["-p", prompt, "--skip-trust", "--approval-mode", "yolo", "-o", "stream-json"],
    { cwd, env },
    (m, _send, done) => {
      if (m.type === "tool_result") done(JSON.stringify(m));
    },
    () => undefined,
  );
  return { answered: [], final };
}

/**
 * The Inspector's `mcpdo` on a private daemon: connect, call the tool, answer each pending question
 * with `elicitation/respond` (a form field by field, a URL question `--done`); the last output.
 */
export async function driveMcpdo(bin: string, env: NodeJS.ProcessEnv, era: string, target: string[], tool: string): Promise<Turn> {
  const exports = (await output(process.execPath, [bin, "private"], env)).stdout;
  const daemon: NodeJS.ProcessEnv = {};
  for (const [, key, value] of exports.matchAll(/export (\w+)=['"]?([^'"\n]*)['"]?/g)) daemon[key!] = value!;
  const run = async (args: string[]) => (await output(process.execPath, [bin, "--format", "json", ...args], { ...env, ...daemon })).stdout;
  const answered: Answered[] = [];
  try {
    const connected = JSON.parse(await run(["connect", "--era", era, ...target])) as Json;
    const connection = ["--connection", String(connected.name)];
    let out = await run([...connection, "tools/call", tool]);
    for (let round = 0; round < 4; round++) {
      const pending = (JSON.parse(out) as Json).elicitationPending as Json | undefined;
      if (pending === undefined) break;
      const answer =
        pending.mode === "url" ? ["--done"] : Object.entries(firstChoices(pending.requestedSchema)).map(([k, v]) => `${k}:=${String(v)}`);
      answered.push({ mode: String(pending.mode), action: "accept" });
      out = await run([...connection, "elicitation/respond", String(pending.elicitationId), ...answer]);
    }
    await run([...connection, "disconnect"]);
    return { answered, final: out };
  } finally {
    await run(["daemon", "stop"]);
  }
}

/** The Inspector's one-shot `--cli`: `tools/call`, its printed outcome. */
export async function driveInspectorCli(bin: string, env: NodeJS.ProcessEnv, args: string[]): Promise<Turn> {
  const out = await output(process.execPath, [bin, "--cli", ...args], env);
  return { answered: [], final: `${out.stdout}${out.stderr}` };
}

/**
 * Runs a command to its end without blocking the event loop (the HTTP pass-through in front of the
 * server runs in this process); killed after a minute.
 */
function output(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
}
