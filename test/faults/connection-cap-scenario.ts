// The connection cap scenario: the probe app (the tasks sample's app plus `echo`, tasks in
// memory) listening with a cap of FAULTS_CAP connections (`listen({ maxConnections })`, through
// the fixture's MAX_CONNECTIONS: the sample has no variable for it). FAULTS_CAP connections are
// held open (each answered one request, then idle under keep-alive), then FAULTS_OVER_CAP more
// open at once, each sending one `echo` call. Each must get an HTTP answer: a 503 with
// Retry-After when the cap is reached (or its ordinary answer if a slot freed meanwhile). A
// connection closed or reset with no HTTP answer is counted as dropped. Once the held
// connections are released, an ordinary call must be answered again.
import { Agent, request } from "node:http";
import net from "node:net";
import { meta } from "../support/raw-http";
import { judge, send } from "./fault-client";
import type { FaultSettings } from "./fault-settings";
import { Tally, type ScenarioReport } from "./fault-tally";
import { countCrash, pause, PROBE_APP, ServerProcess } from "./server-process";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28" };

function body(method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta() } });
}

/** One request on a connection of the agent's; its status (0 when it failed). */
function heldRequest(url: string, agent: Agent): Promise<number> {
  const text = body("tools/list", {});
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...HEADERS, "mcp-method": "tools/list", "content-length": String(Buffer.byteLength(text)) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(text);
  });
}

type RawEnd = { kind: "answer"; status: number; retryAfter?: string } | { kind: "dropped"; reason: string } | { kind: "hang" };

/** A new connection sending one `echo` call and `Connection: close`: what came back, read off the socket. */
function overCapCall(port: number, deadlineMs: number): Promise<RawEnd> {
  const text = body("tools/call", { name: "echo", arguments: { text: "over the cap" } });
  const head = [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    ...Object.entries({ ...HEADERS, "mcp-method": "tools/call", "mcp-name": "echo" }).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(text)}`,
    "Connection: close",
  ].join("\r\n");
  return new Promise((resolve) => {
    let received = "";
    let problem = "";
    const socket = net.connect({ host: "127.0.0.1", port }, () => socket.write(`${head}\r\n\r\n${text}`));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ kind: "hang" });
    }, deadlineMs);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => (problem = error.code ?? error.message));
    socket.on("close", () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      if (status === undefined)
        return resolve({ kind: "dropped", reason: problem ? `reset (${problem}) with no HTTP answer` : "closed with no HTTP answer" });
      const retryAfter = /\r\nretry-after:\s*([^\r]*)/i.exec(received.split("\r\n\r\n")[0]!)?.[1];
      resolve({ kind: "answer", status: Number(status), ...(retryAfter !== undefined && { retryAfter }) });
    });
  });
}

export async function connectionCapScenario(settings: FaultSettings): Promise<ScenarioReport> {
  const tally = new Tally("cap");
  const server = await ServerProcess.start("probe app", PROBE_APP, { TASK_STORE: "memory:", MAX_CONNECTIONS: String(settings.cap) });
  countCrash(tally, server);
  const agent = new Agent({ keepAlive: true, maxSockets: settings.cap });
  try {
    const held = await Promise.all(Array.from({ length: settings.cap }, () => heldRequest(server.url, agent)));
    tally.requests += held.length;
    const refused = held.filter((status) => status !== 200).length;
    if (refused > 0) tally.note(`${refused} of the ${settings.cap} connections to hold were not answered 200`);

    const port = Number(new URL(server.url).port);
    const over = await Promise.all(Array.from({ length: settings.overCap }, () => overCapCall(port, settings.deadlineMs)));
    tally.requests += over.length;
    const byStatus = new Map<string, number>();
    for (const end of over) {
      if (end.kind === "hang") tally.count("hangs", `a connection over the cap got no answer within ${settings.deadlineMs} ms`);
      else if (end.kind === "dropped") tally.count("dropped", `a connection over the cap of ${settings.cap}: ${end.reason}`);
      else {
        const key = `${end.status}${end.status === 503 ? (end.retryAfter === undefined ? " without Retry-After" : " with Retry-After") : ""}`;
        byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
      }
    }
    const answered = [...byStatus].map(([k, n]) => `${n} × ${k}`).join(", ") || "none";
    tally.note(`${settings.overCap} connections over a cap of ${settings.cap} (${settings.cap} held): answered ${answered}`);

    // Released: the server notices the closes in its own time, so the first calls may still meet the cap.
    agent.destroy();
    const releasedAt = Date.now();
    for (;;) {
      const after = await send(server.url, "tools/call", { name: "echo", arguments: { text: "after the cap" } }, settings.deadlineMs);
      if (after.kind === "answer" && after.message?.result !== undefined) {
        tally.requests++;
        break;
      }
      if (Date.now() - releasedAt > settings.deadlineMs) {
        judge(tally, after, { what: "tools/call echo after the held connections closed", storeBound: false });
        if (after.kind === "answer")
          tally.count(
            "dropped",
            `tools/call echo ${settings.deadlineMs} ms after the held connections closed is still answered ${after.status} ${JSON.stringify(after.message)}`,
          );
        break;
      }
      await pause(50);
    }
    return tally.report();
  } finally {
    agent.destroy();
    await server.kill();
  }
}
