// A throwaway PostgreSQL cluster the fault run can break: initdb'd from the machine's Debian
// PostgreSQL binaries into a temporary folder, on a free port on 127.0.0.1, as in
// test/postgres/with-postgres.ts (which only runs a command against one and cannot stop it
// midway). Here the caller can terminate the app's connections and stop and start the server.
import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { findBinDir } from "../postgres/postgres-cluster";
import { freePort } from "../support/free-port";

const DATABASE = "roundtrip_faults";
const run = promisify(execFile);

/** The server binaries, or an error that also says how to run the fault run without them. */
function binDir(): string {
  try {
    return findBinDir();
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; or leave the scenario out (FAULTS_ONLY=sqlite,sigterm,cap)`,
      { cause: error },
    );
  }
}

export class PostgresCluster {
  private running = false;
  private removed = false;

  private constructor(
    private readonly bin: string,
    private readonly folder: string,
    private readonly port: number,
    private readonly asRoot: boolean,
  ) {}

  /** The database the app uses. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${DATABASE}`;
  }

  static async create(): Promise<PostgresCluster> {
    const bin = binDir();
    const asRoot = process.getuid?.() === 0;
    const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-faults-pg-"));
    const cluster = new PostgresCluster(bin, folder, await freePort(), asRoot);
    process.once("exit", () => cluster.remove());
    try {
      if (asRoot)
        chownSync(
          folder,
          Number(execFileSync("id", ["-u", "postgres"]).toString()),
          Number(execFileSync("id", ["-g", "postgres"]).toString()),
        );
      await cluster.asServerUser("initdb", ["-D", cluster.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
      await cluster.start();
      await run(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "postgres", DATABASE]);
    } catch (error) {
      cluster.remove();
      throw error;
    }
    return cluster;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const settings = `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    this.running = true;
    await this.asServerUser("pg_ctl", [
      "-D",
      this.data,
      "-l",
      path.join(this.folder, "postgres.log"),
      "-o",
      settings,
      "-w",
      "-t",
      "60",
      "start",
    ]);
  }

  /** `pg_ctl stop -m <mode>`: fast ends every session with 57P01 and stops. */
  async stop(mode: "fast" | "immediate" = "fast"): Promise<void> {
    await this.asServerUser("pg_ctl", ["-D", this.data, "-m", mode, "-w", "stop"]);
    this.running = false;
  }

  /**
   * pg_terminate_backend on every connection the app's stores opened (application_name
   * roundtrip-mcp), at a moment one of them is between two statements of a transaction when that
   * comes within `busyWithinMs`: a fault that meets work in progress, as a failover under load
   * does. How many were ended, and whether one was in a transaction.
   */
  async terminateAppConnections(busyWithinMs: number): Promise<{ ended: number; busy: boolean }> {
    const client = new Client({ connectionString: this.url, application_name: "roundtrip-faults" });
    await client.connect();
    try {
      const until = Date.now() + busyWithinMs;
      // One statement that looks and terminates, so the transaction it saw is still there.
      const inTransaction =
        "EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = 'roundtrip-mcp' AND state = 'idle in transaction')";
      const terminate =
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'roundtrip-mcp'";
      let ended = 0;
      while (Date.now() < until) {
        ended = (await client.query(`${terminate} AND ${inTransaction}`)).rows[0].n as number;
        if (ended > 0) return { ended, busy: true };
      }
      const { rows } = await client.query(terminate);
      return { ended: (rows[0] as { n: number }).n, busy: false };
    } finally {
      await client.end();
    }
  }

  /** Stops the server (immediate) and deletes the folder; safe to call twice. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    try {
      // Synchronous: this also runs in the process's exit handler.
      if (this.running)
        execFileSync(...this.serverCommand("pg_ctl", ["-D", this.data, "-m", "immediate", "-w", "stop"]), { stdio: "ignore" });
    } catch {
      // Already down: the folder goes anyway.
    }
    rmSync(this.folder, { recursive: true, force: true });
  }

  private get data(): string {
    return path.join(this.folder, "data");
  }

  /** A server program's command line, as the `postgres` user when we are root (initdb refuses root). */
  private serverCommand(program: string, args: string[]): [string, string[]] {
    const file = path.join(this.bin, program);
    return this.asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  }

  private async asServerUser(program: string, args: string[]): Promise<void> {
    await run(...this.serverCommand(program, args));
  }
}
