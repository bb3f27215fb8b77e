// The SQLite scenario, two parts on files of their own:
// - the write lock: the probe app (the tasks sample's app plus `echo`, a plain tool) on a SQLite
//   file while a second process holds the file's write lock (BEGIN IMMEDIATE), first with no
//   task traffic (FAULTS_IDLE_LOCK_MS, 6 s: longer than the recovery period, so the app's own
//   background store work meets the lock) and then under task load (FAULTS_LOCK_MS). `echo` is
//   called every 20 ms meanwhile: each call slower than FAULTS_PLAIN_HANG_MS is a hang, and
//   p50/p99 are reported beside the unlocked baseline. The lock is an outage for store-bound
//   requests; after it every acknowledged task must end completed with its result.
// - kill -9: the tasks sample itself (its default file, tasks.sqlite in DATA_DIR) under task
//   load, killed with SIGKILL once FAULTS_KILL_AFTER tasks were acknowledged, then started again
//   on the same file: every acknowledged task must still be there, and every result read before
//   the kill still readable. (Tasks running at the kill are recovered only when their 30 s lease
//   lapses: not waited for here.)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as readline from "node:readline";
import { spawn } from "node:child_process";
import { judge, send } from "./fault-client";
import type { FaultSettings } from "./fault-settings";
import { Outages, percentile, Tally, type ScenarioReport } from "./fault-tally";
import { countCrash, LOCK_HOLDER, pause, PROBE_APP, ServerProcess, TASKS_SAMPLE } from "./server-process";
import { settle, verdict, type Flow } from "./task-flow";
import { TaskLoad } from "./task-load";

const BASELINE_CALLS = 20;
const PROBE_GAP_MS = 20;

export async function sqliteScenario(settings: FaultSettings): Promise<ScenarioReport> {
  const tally = new Tally("sqlite");
  const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-faults-sqlite-"));
  try {
    await lockPart(settings, tally, path.join(folder, "locked"));
    await killPart(settings, tally, path.join(folder, "killed"));
    return tally.report();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function lockPart(settings: FaultSettings, tally: Tally, folder: string): Promise<void> {
  const file = path.join(folder, "tasks.sqlite");
  const outages = new Outages(settings.graceMs);
  const flow: Flow = { tally, outages, deadlineMs: settings.deadlineMs, strict: settings.strict };
  const server = await ServerProcess.start("probe app", PROBE_APP, {
    TASK_STORE: `sqlite:${file}`,
    REPORT_STEP_MS: String(settings.stepMs),
  });
  countCrash(tally, server);
  try {
    const target = { url: server.url, name: "the probe app" };
    const echo = async (hangAfterMs?: number) => {
      const outcome = await send(server.url, "tools/call", { name: "echo", arguments: { text: "ping" } }, settings.deadlineMs);
      judge(tally, outcome, { what: "tools/call echo", storeBound: false, hangAfterMs });
      return outcome.doneAt - outcome.sentAt;
    };
    const baseline: number[] = [];
    for (let i = 0; i < BASELINE_CALLS; i++) baseline.push(await echo(settings.plainHangMs));
    tally.note(`echo unlocked: p50 ${percentile(baseline, 50)} ms, p99 ${percentile(baseline, 99)} ms`);

    // Probes `echo` back to back while the lock is held; the latencies.
    const probeWhileLocked = async (holdMs: number, label: string): Promise<void> => {
      const holder = spawn(process.execPath, [LOCK_HOLDER], {
        env: { ...process.env, LOCK_FILE: file, LOCK_MS: String(holdMs) },
        stdio: ["ignore", "pipe", "inherit"],
      });
      const lines = readline.createInterface({ input: holder.stdout! });
      const said = (what: string) => new Promise<void>((resolve) => lines.on("line", (line) => line === what && resolve()));
      const exited = new Promise<void>((resolve) => holder.once("exit", () => resolve()));
      const locked = await Promise.race([said("locked").then(() => true), exited.then(() => false)]);
      if (!locked) throw new Error(`the second process could not take the write lock of ${file}`);
      outages.begin("SQLite write lock");
      let released = false;
      void Promise.race([said("released"), exited]).then(() => {
        released = true;
        outages.end();
      });
      const latencies: number[] = [];
      // One call every 20 ms: any stall of the event loop longer than that meets a call waiting.
      while (!released) {
        latencies.push(await echo(settings.plainHangMs));
        await pause(PROBE_GAP_MS);
      }
      await exited;
      const slow = latencies.filter((ms) => ms > settings.plainHangMs).length;
      tally.note(
        `echo during a ${holdMs} ms lock ${label}: ${latencies.length} calls, p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms, ${slow} over ${settings.plainHangMs} ms`,
      );
    };
    await probeWhileLocked(settings.idleLockMs, "with no task traffic");

    const load = new TaskLoad(
      "sqlite",
      flow,
      () => target,
      () => target,
    );
    load.start(settings.workers);
    if (!(await load.acknowledged(settings.tasksBetween, settings.deadlineMs)))
      tally.note(`fewer than ${settings.tasksBetween} tasks acknowledged before the lock`);
    await probeWhileLocked(settings.lockMs, `under task load (${settings.workers} clients)`);
    if (!(await load.acknowledged(settings.tasksBetween, settings.deadlineMs)))
      tally.note(`fewer than ${settings.tasksBetween} tasks acknowledged after the lock`);
    await load.stop();
    await settle(load.tasks, () => target, Date.now() + settings.settleMs, flow);
    for (const task of load.tasks) await verdict(task, target, flow, true);
    tally.note(`lock: ${load.tasks.length} tasks acknowledged`);
  } finally {
    await server.kill();
  }
}

async function killPart(settings: FaultSettings, tally: Tally, dataDir: string): Promise<void> {
  const env = { DATA_DIR: dataDir, REPORT_STEP_MS: String(settings.stepMs), PORT: "0" };
  const flow: Flow = { tally, deadlineMs: settings.deadlineMs };
  const first = await ServerProcess.start("sample", TASKS_SAMPLE, env);
  countCrash(tally, first);
  const target = { url: first.url, name: "the sample" };
  const load = new TaskLoad(
    "kill",
    flow,
    () => (first.alive ? target : undefined),
    () => (first.alive ? target : undefined),
  );
  load.start(settings.workers);
  if (!(await load.acknowledged(settings.killAfter, settings.deadlineMs * 2)))
    tally.note(`fewer than ${settings.killAfter} tasks acknowledged before the kill`);
  // Answers due from the killed process count nowhere: it was killed on purpose.
  flow.tally = new Tally("killed");
  await first.kill();
  await load.stop();
  flow.tally = tally;
  const completed = load.tasks.filter((t) => t.resultSeen).length;
  const second = await ServerProcess.start("sample (restarted)", TASKS_SAMPLE, env);
  countCrash(tally, second);
  try {
    const again = { url: second.url, name: "the restarted sample" };
    for (const task of load.tasks) await verdict(task, again, flow, false);
    tally.note(
      `kill -9: ${load.tasks.length} tasks acknowledged before it, ${completed} of them completed; all read back after the restart`,
    );
  } finally {
    await second.kill();
  }
}
