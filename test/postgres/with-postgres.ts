/*
 * Runs a command against a throwaway PostgreSQL cluster:
 *
 *   ts-node --transpile-only test/postgres/with-postgres.ts -- <command> [args...]
 *
 * It finds initdb and pg_ctl in the machine's PostgreSQL packages (/usr/lib/postgresql/<v>/bin,
 * newest first, or POSTGRES_BIN_DIR, or PATH), initdb's a cluster in a fresh temporary folder
 * (as the `postgres` system user when run as root: initdb refuses root), starts it on a free
 * port listening on 127.0.0.1 only, creates the database `roundtrip_test`, and runs the
 * command with TEST_POSTGRES_URL set to it. Afterwards, also on failure or Ctrl-C, it stops the
 * cluster and removes the folder. The command's exit code is the script's.
 *
 * With TEST_POSTGRES_URL already set, it runs the command against that database instead.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const DATABASE = "roundtrip_test";

function fail(message: string): never {
  process.stderr.write(`with-postgres: ${message}\n`);
  process.exit(2);
}

/** The folder holding initdb and pg_ctl. */
function findBinDir(): string {
  const has = (dir: string) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"));
  if (process.env.POSTGRES_BIN_DIR) {
    if (has(process.env.POSTGRES_BIN_DIR)) return process.env.POSTGRES_BIN_DIR;
    fail(`POSTGRES_BIN_DIR=${process.env.POSTGRES_BIN_DIR} has no initdb and pg_ctl`);
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => has(path.join(root, v, "bin"))) : [];
  versions.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  if (versions.length > 0) return path.join(root, versions[0], "bin");
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir && has(dir));
  if (onPath) return onPath;
  fail(`no PostgreSQL server found (looked in ${root}/*/bin, POSTGRES_BIN_DIR and PATH); install it, e.g. apt-get install -y postgresql`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server program, as `postgres` when we are root. */
function asServerUser(program: string, args: string[], asRoot: boolean): void {
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
}

async function main(): Promise<void> {
  const separator = process.argv.indexOf("--");
  const command = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
  if (command.length === 0) fail("usage: with-postgres.ts -- <command> [args...]");

  if (process.env.TEST_POSTGRES_URL) {
    process.exitCode = await run(command, process.env.TEST_POSTGRES_URL);
    return;
  }

  const bin = findBinDir();
  const asRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(path.join(os.tmpdir(), "roundtrip-pg-"));
  const data = path.join(folder, "data");
  const log = path.join(folder, "postgres.log");
  let started = false;
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    try {
      if (started) asServerUser(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], asRoot);
    } catch (error) {
      process.stderr.write(`with-postgres: could not stop the cluster: ${String(error)}\n`);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.on("exit", cleanup);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (child) child.kill(signal);
      else {
        cleanup();
        process.exit(130);
      }
    });
  }

  try {
    if (asRoot) {
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
      chownSync(folder, uid, gid);
    }
    asServerUser(path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], asRoot);
    const port = await freePort();
    const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    started = true;
    asServerUser(path.join(bin, "pg_ctl"), ["-D", data, "-l", log, "-o", settings, "-w", "-t", "60", "start"], asRoot);
    execFileSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", DATABASE], { stdio: ["ignore", "pipe", "pipe"] });
    const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
    process.stderr.write(`with-postgres: PostgreSQL from ${bin} on ${url}\n`);
    process.exitCode = await run(command, url);
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    process.stderr.write(`with-postgres: ${error instanceof Error ? error.message : String(error)}\n${output}`);
    if (existsSync(log)) process.stderr.write(readFileSync(log, "utf8"));
    process.exitCode = 1;
  } finally {
    cleanup();
  }
}

let child: ChildProcess | undefined;

function run(command: string[], url: string): Promise<number> {
  return new Promise((resolve) => {
    child = spawn(command[0], command.slice(1), { stdio: "inherit", env: { ...process.env, TEST_POSTGRES_URL: url } });
    child.on("error", (error) => {
      process.stderr.write(`with-postgres: could not run ${command[0]}: ${error.message}\n`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
}

void main();
