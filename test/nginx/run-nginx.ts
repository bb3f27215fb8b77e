// The load balancer suite (not a jest test; `npm run test:nginx`, after a build, run by .ci/run):
// nginx (Debian's package) with deploy/nginx/mcp.conf.template, plain round-robin and a short
// proxy_read_timeout, in front of three instances of the preferences sample on one throwaway
// PostgreSQL cluster (one STATE_KEYS, MCP_BUS on the cluster). Scenarios:
// - flows: the official 2026 client and the 2025-era client complete every preferences flow
//   (two dependent questions as a tool, a resource template and a prompt; URL consent; a
//   state-only continuation), all at once;
// - read-timeout: a 2025 user answers each question after nginx's proxy_read_timeout cut the
//   idle stream; the client resumes it on whichever instance and completes;
// - polling: the instances close a call's stream after MCP_POLL_AFTER_MS; users answer after it;
// - kill: kill -9 of the instance running a 2025 call while its question waits for the user;
// - sigterm: SIGTERM of the instance running 2025 calls whose questions wait, while 2026 calls keep
//   arriving; the instance drains (MCP_DRAIN_TIMEOUT_MS), hands the calls over and exits 0.
// It prints per scenario and in total the calls, hangs (a call unsettled after 60 s), lost answers
// (an answer not acknowledged 202, or a result without the answers given) and lost calls (a call
// that failed), and exits 1 unless all three are zero. NGINX_LOGS=<folder> keeps nginx's logs.
// Before the scenarios, check-recipes.mjs checks the recipes of deploy/ that no container engine
// runs here (compose, Kubernetes, the Dockerfile) against their published schemas.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PostgresCluster } from "../postgres/postgres-cluster";
import { FLOWS, legacyFlow, modernFlow, type FlowRun } from "./nginx-flows";
import { freePort } from "../support/free-port";
import { NginxProcess, startInstance, type Instance } from "./nginx-harness";

const READ_TIMEOUT_S = 3;
const HANG_MS = 60_000;
const DRAIN_MS = 1_500;

interface Tally {
  scenario: string;
  calls: number;
  hangs: number;
  lostAnswers: number;
  lostCalls: number;
  seconds: number;
  notes: string[];
}

const pause = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Settles each run, counting it. */
async function count(tally: Tally, runs: FlowRun[]): Promise<void> {
  await Promise.all(
    runs.map(async (run) => {
      tally.calls++;
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<"hang">((resolve) => (timer = setTimeout(() => resolve("hang"), HANG_MS)));
      const outcome = await Promise.race([run.done.then((carried) => (carried ? "ok" : "wrong")), hang]).catch(
        (error: unknown) => `error: ${error instanceof Error ? error.message : String(error)}`,
      );
      clearTimeout(timer);
      const refused = run.observed.answerStatuses.filter((status) => status !== 202);
      if (outcome === "hang") tally.hangs++;
      else if (outcome === "wrong" || refused.length > 0) tally.lostAnswers++;
      else if (outcome !== "ok") tally.lostCalls++;
      if (outcome !== "ok" || refused.length > 0)
        tally.notes.push(`${run.era} ${run.flow}: ${outcome}${refused.length > 0 ? ` (answers answered ${refused.join(", ")})` : ""}`);
      await run.close().catch(() => undefined);
    }),
  );
}

class Deployment {
  readonly instances: Instance[] = [];
  env: Record<string, string> = {};

  constructor(
    readonly cluster: PostgresCluster,
    readonly nginx: NginxProcess,
    ports: number[],
  ) {
    for (const port of ports) this.instances.push({ port, server: undefined });
  }

  async start(extra: Record<string, string> = {}): Promise<void> {
    await this.stop();
    this.env = {
      STATE_KEYS: KEYS,
      MCP_BUS: this.cluster.url,
      MCP_RETRY_MS: "200",
      MCP_TAKEOVER_AFTER_MS: "1500",
      MCP_DRAIN_TIMEOUT_MS: String(DRAIN_MS),
      ...extra,
    };
    await Promise.all(this.instances.map((instance) => startInstance(instance, this.env)));
  }

  async restart(instance: Instance): Promise<void> {
    await startInstance(instance, this.env);
  }

  byUpstream(upstream: string): Instance | undefined {
    return this.instances.find((i) => upstream.endsWith(`:${i.port}`));
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.server?.stop("SIGKILL")));
  }
}

const KEYS = `k1:${randomBytes(32).toString("base64")}`;

async function flows(d: Deployment, tally: Tally): Promise<void> {
  const runs = [
    ...(await Promise.all(FLOWS.map((flow, n) => modernFlow(d.nginx.url, flow, n)))),
    ...(await Promise.all(FLOWS.map((flow, n) => legacyFlow(d.nginx.url, flow, n)))),
  ];
  await count(tally, runs);
}

async function readTimeout(d: Deployment, tally: Tally): Promise<void> {
  const think = () => pause(READ_TIMEOUT_S * 1000 + 1_500);
  await count(tally, await Promise.all([legacyFlow(d.nginx.url, "choose", 0, think), legacyFlow(d.nginx.url, "summary", 1, think)]));
}

async function polling(d: Deployment, tally: Tally): Promise<void> {
  await d.start({ MCP_POLL_AFTER_MS: "700" });
  const think = () => pause(1_800);
  await count(
    tally,
    await Promise.all(["choose", "prompt", "summary"].map((flow, n) => legacyFlow(d.nginx.url, flow as "choose", n, think))),
  );
  await d.start();
}

/** The instance whose POST carried the run's call (from the answering instance nginx names). */
function ownerOf(d: Deployment, run: FlowRun | undefined): Instance | undefined {
  const call = run?.observed.upstreams.find((u) => u.method !== "initialize" && !u.method.startsWith("notifications/"));
  return call === undefined ? undefined : d.byUpstream(call.upstream);
}

async function kill(d: Deployment, tally: Tally): Promise<void> {
  let killed: Instance | undefined;
  const run: FlowRun = await legacyFlow(d.nginx.url, "choose", 2, async (message) => {
    if (killed !== undefined || message !== "Which colour do you prefer?") return;
    killed = ownerOf(d, run);
    await killed?.server?.stop("SIGKILL");
  });
  await count(tally, [run]);
  if (killed === undefined) throw new Error("kill: could not tell which instance ran the call");
  tally.notes.push(`killed the instance on port ${killed.port} with a question pending`);
  await d.restart(killed);
}

async function sigterm(d: Deployment, tally: Tally): Promise<void> {
  let stopping: Promise<void> | undefined;
  let target: Instance | undefined;
  const runs: FlowRun[] = [];
  const first = await legacyFlow(d.nginx.url, "choose", 0, async (message) => {
    if (message === "Which colour do you prefer?" && stopping === undefined) {
      target = ownerOf(d, first);
      const server = target?.server;
      const started = Date.now();
      stopping = server
        ?.stop("SIGTERM")
        .then(() => void tally.notes.push(`SIGTERM: the instance exited by itself after ${Date.now() - started} ms`));
    }
    // The user answers after the drain deadline: the question is handed over meanwhile.
    await pause(DRAIN_MS + 1_000);
  });
  runs.push(first);
  // Other users' calls keep arriving, in both eras, while the instance drains.
  for (let n = 0; n < 8; n++) {
    runs.push(await modernFlow(d.nginx.url, FLOWS[n % FLOWS.length]!, n));
    if (n % 2 === 0) runs.push(await legacyFlow(d.nginx.url, "choose", n, () => pause(400)));
    await pause(250);
  }
  await count(tally, runs);
  await stopping;
  if (target === undefined) throw new Error("sigterm: could not tell which instance ran the call");
  await d.restart(target);
}

const SCENARIOS: Record<string, (d: Deployment, tally: Tally) => Promise<void>> = {
  flows,
  "read-timeout": readTimeout,
  polling,
  kill,
  sigterm,
};

async function main(): Promise<void> {
  // The recipes no container engine runs here: checked against their schemas first.
  const recipes = spawnSync(process.execPath, [path.join(__dirname, "check-recipes.mjs")], { stdio: "inherit" });
  if (recipes.status !== 0) throw new Error("the deployment recipes failed their checks");
  const only = (process.env.NGINX_ONLY ?? Object.keys(SCENARIOS).join(",")).split(",").filter((s) => s in SCENARIOS);
  const prefix = mkdtempSync(path.join(os.tmpdir(), "roundtrip-nginx-"));
  const cluster = await PostgresCluster.create();
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const nginxPort = await freePort();
  const nginx = await NginxProcess.start(prefix, nginxPort, {
    MCP_INSTANCE_1: `127.0.0.1:${ports[0]}`,
    MCP_INSTANCE_2: `127.0.0.1:${ports[1]}`,
    MCP_INSTANCE_3: `127.0.0.1:${ports[2]}`,
    MCP_READ_TIMEOUT: `${READ_TIMEOUT_S}s`,
  });
  const deployment = new Deployment(cluster, nginx, ports);
  const tallies: Tally[] = [];
  const broken: string[] = [];
  try {
    await deployment.start();
    console.log(`nginx suite: nginx on ${nginx.url}, instances on ${ports.join(", ")}, PostgreSQL on port ${cluster.port}`);
    for (const name of only) {
      const tally: Tally = { scenario: name, calls: 0, hangs: 0, lostAnswers: 0, lostCalls: 0, seconds: 0, notes: [] };
      const started = Date.now();
      try {
        await SCENARIOS[name]!(deployment, tally);
      } catch (error) {
        broken.push(`${name}: could not run: ${error instanceof Error ? error.message : String(error)}`);
      }
      tally.seconds = (Date.now() - started) / 1000;
      tallies.push(tally);
      console.log(`${name}: done in ${tally.seconds.toFixed(1)} s`);
    }
  } finally {
    await deployment.stop();
    await nginx.stop();
    cluster.destroy();
    if (process.env.NGINX_LOGS) cpSync(path.join(prefix, "logs"), process.env.NGINX_LOGS, { recursive: true });
    rmSync(prefix, { recursive: true, force: true });
  }
  const total: Tally = { scenario: "total", calls: 0, hangs: 0, lostAnswers: 0, lostCalls: 0, seconds: 0, notes: [] };
  for (const t of tallies) for (const k of ["calls", "hangs", "lostAnswers", "lostCalls", "seconds"] as const) total[k] += t[k];
  console.log("");
  console.log(["scenario".padEnd(13), "calls", "hangs", "lost answers", "lost calls", "seconds"].join("  "));
  for (const t of [...tallies, total])
    console.log(
      [
        t.scenario.padEnd(13),
        String(t.calls).padStart(5),
        String(t.hangs).padStart(5),
        String(t.lostAnswers).padStart(12),
        String(t.lostCalls).padStart(10),
        t.seconds.toFixed(1).padStart(7),
      ].join("  "),
    );
  for (const t of tallies) for (const note of t.notes) console.log(`  ${t.scenario}: ${note}`);
  for (const line of broken) console.log(line);
  const clean = broken.length === 0 && total.calls > 0 && total.hangs === 0 && total.lostAnswers === 0 && total.lostCalls === 0;
  console.log(clean ? "verdict: clean" : "verdict: FAILED");
  process.exit(clean ? 0 : 1);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
