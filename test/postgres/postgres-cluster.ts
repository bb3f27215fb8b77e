// A throwaway PostgreSQL cluster from the machine's PostgreSQL packages: initdb'd in a fresh
// temporary folder (as the `postgres` system user when run as root: initdb refuses root),
// listening on 127.0.0.1 only on a free port, with the database `roundtrip_test`. with-postgres.ts
// runs the suites against one; a fault test that stops and restarts a server starts one of its
// own, so it never takes the shared database away from the suites running beside it.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/free-port";

export const DATABASE = "roundtrip_test";

/** The folder holding initdb and pg_ctl: POSTGRES_BIN_DIR, /usr/lib/postgresql/<v>/bin (newest first), or PATH. */
export function findBinDir(): string {
  const has = (dir: string) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"));
  if (process.env.POSTGRES_BIN_DIR) {
    if (has(process.env.POSTGRES_BIN_DIR)) return process.env.POSTGRES_BIN_DIR;
    throw new Error(`POSTGRES_BIN_DIR=${process.env.POSTGRES_BIN_DIR} has no initdb and pg_ctl`);
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => has(path.join(root, v, "bin"))) : [];
  versions.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  if (versions.length > 0) return path.join(root, versions[0]!, "bin");
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir && has(dir));
  if (onPath) return onPath;
  throw new Error(
    `no PostgreSQL server found (looked in ${root}/*/bin, POSTGRES_BIN_DIR and PATH); install it, e.g. apt-get install -y postgresql`,
  );
}

export class PostgresCluster {
  private running = false;
  private removed = false;

  private constructor(
    private readonly bin: string,
    private readonly folder: string,
    private readonly asRoot: boolean,
    readonly port: number,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/roundtrip_test`. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${DATABASE}`;
  }

  private get data(): string {
    return path.join(this.folder, "data");
  }

  /** The server's log so far (for a failure's message). */
  log(): string {
    const file = path.join(this.folder, "postgres.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  }

  /** initdb, start, createdb. On failure the folder is removed and the error carries the server's output. */
  static async create(): Promise<PostgresCluster> {
    const bin = findBinDir();
    const asRoot = process.getuid?.() === 0;
    const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-pg-"));
    const cluster = new PostgresCluster(bin, folder, asRoot, await freePort());
    try {
      if (asRoot) {
        const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
        const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
        chownSync(folder, uid, gid);
      }
      cluster.server("initdb", ["-D", cluster.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
      cluster.start();
      execFileSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(cluster.port), "-U", "postgres", DATABASE], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      return cluster;
    } catch (error) {
      const output = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
      const log = cluster.log();
      cluster.destroy();
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}${log}`);
    }
  }

  /** Starts the (stopped) server on the same port and folder, waiting until it accepts connections. */
  start(): void {
    const settings = `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    this.running = true;
    this.server("pg_ctl", ["-D", this.data, "-l", path.join(this.folder, "postgres.log"), "-o", settings, "-w", "-t", "60", "start"]);
  }

  /** `pg_ctl stop -m <mode>`: "fast" ends every session (57P01), "immediate" drops them without a goodbye. */
  stop(mode: "fast" | "immediate" = "fast"): void {
    if (!this.running) return;
    this.server("pg_ctl", ["-D", this.data, "-m", mode, "-w", "-t", "60", "stop"]);
    this.running = false;
  }

  /** Stops the server (immediate) and removes its folder; synchronous, so it can run at process exit. */
  destroy(): void {
    if (this.removed) return;
    this.removed = true;
    try {
      this.stop("immediate");
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }

  /** Runs a server program, as `postgres` when we are root. */
  private server(program: string, args: string[]): void {
    const file = path.join(this.bin, program);
    const [command, argv] = this.asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
    execFileSync(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
  }
}
