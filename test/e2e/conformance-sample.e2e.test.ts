// Pins the conformance fixture server (sample/conformance) beyond what the official suite checks,
// with raw HTTP against createConformanceApp() and the built main-http entry:
// - main-http prints exactly one line, http://localhost:PORT/mcp, serves Host localhost and
//   127.0.0.1, refuses another Host with 403, and exits 0 on SIGTERM;
// - the elicitation fixture completes from inputResponses alone, re-asks on a wrong key, and
//   refuses `{user_name: 12345}` and `inputResponses: null` with -32602 (never complete);
// - multi-round: step2 only after step1, a different sealed state every round, complete at round 3;
// - tampered state: JSON-RPC -32602, never a re-prompt;
// - request-state: an answer without the state it handed out is asked again; with it, "state-ok";
// - capability check: sampling-only capabilities get only the sampling request;
// - test_missing_capability without sampling: -32021 with requiredCapabilities.sampling, HTTP 400.
import { spawn } from "node:child_process";
import { request } from "node:http";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { createConformanceApp } from "../../sample/conformance/app";
import type { HttpListener, McpApp } from "../../src/index";
import { meta, rpc, type RawResponse } from "../support/raw-http";
import { validateServerMessage } from "../support/wire-schema";

/** server/discover with an explicit Host header (fetch does not let a caller set Host). */
function discoverWithHost(port: number, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: {
          host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "server/discover",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const ALL = { elicitation: {}, sampling: {}, roots: { listChanged: true } };
const MAIN = path.resolve(__dirname, "../../dist/sample/conformance/main-http.js");

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe("conformance fixture server", () => {
  let app: McpApp;
  let listener: HttpListener;

  beforeAll(async () => {
    app = createConformanceApp({ state: { secret: "conformance-sample-test-secret-0123456789" } });
    listener = await app.listen({ port: 0 });
  });
  afterAll(() => app.close());

  async function call(
    name: string,
    extra: Record<string, unknown> = {},
    caps: Record<string, unknown> = ALL,
  ): Promise<RawResponse & { json: Body }> {
    const r = await rpc(listener.url, "tools/call", { _meta: meta(caps), name, arguments: {}, ...extra });
    for (const m of r.messages) validateServerMessage(m, "tools/call");
    return { ...r, json: r.body as Body };
  }
  const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

  it("completes the elicitation fixture from inputResponses alone, extra keys ignored", async () => {
    const first = (await call("test_input_required_result_elicitation")).json.result!;
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create" } } });
    const done = await call("test_input_required_result_elicitation", {
      inputResponses: { user_name: accept({ name: "Ada" }), other: accept({ x: 1 }) },
    });
    expect(done.json.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Ada!" }] });
  });

  it("asks again for a wrong key and refuses malformed inputResponses", async () => {
    const wrong = await call("test_input_required_result_elicitation", { inputResponses: { wrong_key: accept({ name: "Ada" }) } });
    expect(wrong.json.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: expect.any(Object) } });
    for (const inputResponses of [{ user_name: 12345 }, null]) {
      const bad = await call("test_input_required_result_elicitation", { inputResponses });
      expect(bad.json.error?.code).toBe(-32602);
      expect(bad.json.result).toBeUndefined();
    }
  });

  it("runs three rounds with a new state each round", async () => {
    const r1 = (await call("test_input_required_result_multi_round")).json.result!;
    expect(Object.keys(r1.inputRequests as object)).toEqual(["step1"]);
    const r2 = (
      await call("test_input_required_result_multi_round", {
        inputResponses: { step1: accept({ name: "Ada" }) },
        requestState: r1.requestState,
      })
    ).json.result!;
    expect(Object.keys(r2.inputRequests as object)).toEqual(["step2"]);
    expect(typeof r2.requestState).toBe("string");
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = await call("test_input_required_result_multi_round", {
      inputResponses: { step2: accept({ color: "teal" }) },
      requestState: r2.requestState,
    });
    expect(r3.json.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada likes teal." }] });
  });

  it("answers tampered state with a JSON-RPC error", async () => {
    const first = (await call("test_input_required_result_tampered_state")).json.result!;
    const tampered = await call("test_input_required_result_tampered_state", {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: `${first.requestState as string}-TAMPERED`,
    });
    expect(tampered.json.error?.code).toBe(-32602);
  });

  it("completes request-state only with the state it handed out", async () => {
    const first = (await call("test_input_required_result_request_state")).json.result!;
    expect(first).toMatchObject({
      resultType: "input_required",
      requestState: expect.any(String),
      inputRequests: { confirm: expect.any(Object) },
    });
    const stateless = await call("test_input_required_result_request_state", { inputResponses: { confirm: accept({ ok: true }) } });
    expect(stateless.json.result).toMatchObject({ resultType: "input_required" });
    const done = await call("test_input_required_result_request_state", {
      inputResponses: { confirm: accept({ ok: true }) },
      requestState: first.requestState,
    });
    expect((done.json.result!.content as { text: string }[])[0]!.text).toContain("state-ok");
  });

  it("asks a sampling-only client for sampling only", async () => {
    const r = (await call("test_input_required_result_capabilities", {}, { sampling: {} })).json.result!;
    const methods = Object.values(r.inputRequests as Record<string, { method: string }>).map((q) => q.method);
    expect(methods).toEqual(["sampling/createMessage"]);
  });

  it("answers a call lacking a needed capability with -32021 and HTTP 400", async () => {
    const r = await call("test_missing_capability", {}, {});
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });
});

describe("conformance main-http", () => {
  it("prints one URL line, serves localhost and 127.0.0.1, and exits 0 on SIGTERM", async () => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
    const child = spawn(process.execPath, [MAIN], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const lines = readline.createInterface({ input: child.stdout! });
      const seen: string[] = [];
      const first = await new Promise<string>((resolve, reject) => {
        lines.on("line", (line) => (seen.push(line), seen.length === 1 && resolve(line)));
        child.once("exit", () => reject(new Error("main-http exited before printing its URL")));
      });
      expect(first).toMatch(/^http:\/\/localhost:\d+\/mcp$/);
      const port = Number(new URL(first).port);
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "evil.example.com"]) {
        expect([host, await discoverWithHost(port, host)]).toEqual([host, host.startsWith("evil") ? 403 : 200]);
      }
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(seen).toEqual([first]);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
