/*
 * Runs a command against a throwaway PostgreSQL cluster:
 *
 *   ts-node --transpile-only test/postgres/with-postgres.ts -- <command> [args...]
 *
 * It starts a throwaway cluster (postgres-cluster.ts: the machine's PostgreSQL packages, a fresh
 * temporary folder, a free port on 127.0.0.1 only, the database `roundtrip_test`) and runs the
 * command with TEST_POSTGRES_URL set to it. Afterwards, also on failure or Ctrl-C, it stops the
 * cluster and removes the folder. The command's exit code is the script's.
 *
 * With TEST_POSTGRES_URL already set, it runs the command against that database instead.
 */
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import { PostgresCluster } from "./postgres-cluster";

function fail(message: string): never {
  process.stderr.write(`with-postgres: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const separator = process.argv.indexOf("--");
  const command = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
  if (command.length === 0) fail("usage: with-postgres.ts -- <command> [args...]");

  if (process.env.TEST_POSTGRES_URL) {
    process.exitCode = await run(command, process.env.TEST_POSTGRES_URL);
    return;
  }

  let cluster: PostgresCluster | undefined;
  const cleanup = () => {
    try {
      cluster?.destroy();
    } catch (error) {
      process.stderr.write(`with-postgres: could not stop the cluster: ${String(error)}\n`);
    }
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
    cluster = await PostgresCluster.create();
    process.stderr.write(`with-postgres: PostgreSQL on ${cluster.url}\n`);
    process.exitCode = await run(command, cluster.url);
  } catch (error) {
    process.stderr.write(`with-postgres: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    cleanup();
  }
}

let child: ChildProcess | undefined;

function run(command: string[], url: string): Promise<number> {
  return new Promise((resolve) => {
    const started = spawn(command[0]!, command.slice(1), { stdio: "inherit", env: { ...process.env, TEST_POSTGRES_URL: url } });
    child = started;
    started.on("error", (error) => {
      process.stderr.write(`with-postgres: could not run ${command[0]}: ${error.message}\n`);
      resolve(127);
    });
    started.on("exit", (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
}

void main();
