// The PostgreSQL scenario: two processes of the tasks sample (dist/sample/tasks/main-http.js,
// TASK_STORE = one throwaway cluster) under task load, while the cluster loses them:
// pg_terminate_backend on every connection of theirs at a moment one is inside a transaction
// (between two statements), FAULTS_PG_TERMINATIONS times, then
// `pg_ctl stop -m fast`, FAULTS_PG_DOWN_MS down, and start again; FAULTS_TASKS_BETWEEN tasks are
// acknowledged between two injections and after the last one (the store must work once it is
// back). A process that dies counts as a crash and is started again (at most twice per
// instance) so the run goes on. Then every acknowledged task gets FAULTS_SETTLE_MS to end
// completed with its result, read on either instance.
import type { FaultSettings } from "./fault-settings";
import { Outages, Tally, type ScenarioReport } from "./fault-tally";
import { PostgresCluster } from "./postgres-cluster";
import { countCrash, ServerProcess, TASKS_SAMPLE } from "./server-process";
import { settle, verdict, type Flow } from "./task-flow";
import { TaskLoad } from "./task-load";

const RESTARTS = 2;
/** How long a termination round waits for a moment one of the app's connections is inside a transaction. */
const BUSY_WITHIN_MS = 2000;

/** One instance of the sample, started again when it dies. */
class Instance {
  server?: ServerProcess;
  restarts = 0;
  private closing = false;

  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    private readonly tally: Tally,
  ) {}

  async start(): Promise<void> {
    const server = await ServerProcess.start(this.name, TASKS_SAMPLE, this.env);
    this.server = server;
    countCrash(this.tally, server, () => {
      if (this.closing || this.restarts >= RESTARTS) return;
      this.restarts++;
      this.start().catch((error: Error) => this.tally.note(`${this.name} could not be started again: ${error.message.split("\n")[0]}`));
    });
  }

  get target(): { url: string; name: string } | undefined {
    return this.server?.alive ? { url: this.server.url, name: this.name } : undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.server?.kill();
  }
}

export async function postgresScenario(settings: FaultSettings): Promise<ScenarioReport> {
  const tally = new Tally("postgres");
  const outages = new Outages(settings.graceMs);
  const flow: Flow = { tally, outages, deadlineMs: settings.deadlineMs, strict: settings.strict };
  const cluster = await PostgresCluster.create();
  const env = { TASK_STORE: cluster.url, REPORT_STEP_MS: String(settings.stepMs), PORT: "0" };
  const instances = [new Instance("A", env, tally), new Instance("B", env, tally)];
  try {
    // One after the other: both would create the schema at once otherwise (safe, but slower).
    for (const instance of instances) await instance.start();
    const either = (first: number) => instances[first % 2]!.target ?? instances[(first + 1) % 2]!.target;
    let polls = 0;
    const load = new TaskLoad(
      "pg",
      flow,
      (worker) => either(worker),
      () => either(polls++),
    );
    load.start(settings.workers);

    const between = async (what: string) => {
      if (!(await load.acknowledged(settings.tasksBetween, settings.deadlineMs)))
        tally.note(`fewer than ${settings.tasksBetween} tasks acknowledged within ${settings.deadlineMs} ms ${what}`);
    };
    await between("before the first injection");
    let terminated = 0;
    let busy = 0;
    for (let i = 0; i < settings.pgTerminations; i++) {
      outages.begin("pg_terminate_backend");
      const round = await cluster.terminateAppConnections(BUSY_WITHIN_MS);
      outages.end();
      terminated += round.ended;
      if (round.busy) busy++;
      await between(`after termination ${i + 1}`);
    }
    tally.note(
      `${settings.pgTerminations} rounds of pg_terminate_backend ended ${terminated} connections of the instances (${busy} of them met one inside a transaction)`,
    );
    outages.begin("pg_ctl stop -m fast");
    await cluster.stop("fast");
    await new Promise((resolve) => setTimeout(resolve, settings.pgDownMs)); // the outage itself
    await cluster.start();
    outages.end();
    tally.note(`PostgreSQL stopped (-m fast) for ${settings.pgDownMs} ms and started again`);
    await between("after PostgreSQL came back");
    await load.stop();

    const any = () => instances[0]!.target ?? instances[1]!.target;
    await settle(load.tasks, () => either(polls++), Date.now() + settings.settleMs, flow);
    const reader = any();
    if (reader === undefined) {
      for (const task of load.tasks) tally.count("lostResults", `task ${task.id}: no instance left to read it`);
    } else {
      for (const task of load.tasks) await verdict(task, reader, flow, true);
    }
    tally.note(
      `${load.tasks.length} tasks acknowledged; instances started again after a crash: A ${instances[0]!.restarts}, B ${instances[1]!.restarts}`,
    );
    return tally.report();
  } finally {
    await Promise.all(instances.map((i) => i.close()));
    cluster.remove();
  }
}
