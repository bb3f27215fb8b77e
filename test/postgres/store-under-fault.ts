// What the PostgreSQL fault tests drive: a store in a child process of its own
// (fixtures/store-process.ts), so that a crash is that process's exit, seen and reported, never
// jest's; a TCP proxy that can freeze (stop forwarding without closing a socket); and the SQL
// that terminates a store's backends by its application_name.
/* eslint-disable @typescript-eslint/no-explicit-any -- the IPC messages of the test's own child process: each field is read by the op that sent it */
import { type ChildProcess, fork } from "node:child_process";
import net from "node:net";
import path from "node:path";
import type { PostgresMessageBusOptions, PostgresTaskStoreOptions } from "../../src/stores";
import { sql } from "./postgres-database";

const FIXTURE = path.join(__dirname, "fixtures", "store-process.ts");

export interface Failure {
  readonly name: string;
  readonly message: string;
  readonly ms: number;
}

export interface LoadReport {
  readonly ok: number;
  readonly acknowledged: string[];
  readonly completed: string[];
  readonly failures: Failure[];
}

export interface StoreProcess {
  readonly pid: number;
  /** Every warning the store logged. */
  readonly warnings: { message: string; fields?: Record<string, unknown> }[];
  /** Resolves once the store logged a warning starting with `text` (at once if it already did). */
  warned(text: string): Promise<void>;
  stderr(): string;
  /** Still running (no crash). */
  alive(): boolean;
  request<T = Record<string, any>>(op: string, args?: Record<string, unknown>): Promise<T>;
  /** Closes the store and resolves with the exit code (0 when nothing crashed). */
  close(): Promise<number | null>;
  /** SIGKILL, for cleanup after a failure. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the process stalls wherever it is, mid-transaction included. */
  pause(): void;
  resume(): void;
}

/** How long a wait may hang before it fails naming what it waited for (a hang guard, not a timing check). */
const HANG_MS = 30_000;

export function guard<T>(what: string, promise: Promise<T>, ms = HANG_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting for ${what} after ${ms} ms`)), ms))),
  ]);
}

/** `url` with `?application_name=<name>`: the store's pool keeps the URL's name, so its backends can be told apart. */
export function named(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", name);
  return u.toString();
}

/** Starts a store process (or another fixture of the same protocol, such as fixtures/bus-process.ts); resolves once it opened. */
export async function startStore(options: PostgresTaskStoreOptions | PostgresMessageBusOptions, fixture = FIXTURE): Promise<StoreProcess> {
  const child: ChildProcess = fork(fixture, [JSON.stringify(options)], {
    execArgv: ["-r", "ts-node/register/transpile-only"],
    stdio: ["ignore", "inherit", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const warnings: StoreProcess["warnings"] = [];
  let warnWaiters: (() => void)[] = [];
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      for (const { reject } of pending.values())
        reject(new Error(`the store process exited (${code ?? signal}) with a request pending:\n${stderr}`));
      pending.clear();
      resolve(code);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.on("message", (message: Record<string, any>) => {
      if (message.type === "ready") resolve();
      else if (message.type === "open-failed") reject(new Error(`the store did not open: ${message.error.message}`));
      else if (message.type === "warn") {
        warnings.push({ message: message.message, fields: message.fields });
        const current = warnWaiters;
        warnWaiters = [];
        for (const wake of current) wake();
      } else if (message.type === "reply") {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
      }
    });
    void exited.then(() => reject(new Error(`the store process exited before it opened:\n${stderr}`)));
  });
  await ready;
  return {
    pid: child.pid!,
    warnings,
    stderr: () => stderr,
    warned: (text) =>
      guard(
        `the warning "${text}"; the store logged ${JSON.stringify(warnings.map((w) => w.message))}`,
        new Promise<void>((resolve) => {
          const check = () => (warnings.some((w) => w.message.startsWith(text)) ? resolve() : warnWaiters.push(check));
          check();
        }),
      ),
    alive: () => exitCode === undefined,
    request: (op, args = {}) => {
      if (exitCode !== undefined) return Promise.reject(new Error(`the store process has exited (${exitCode}):\n${stderr}`));
      const id = nextId++;
      return guard(
        `the store process to answer ${op} ${JSON.stringify(args)}`,
        new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          child.send({ ...args, op, id });
        }),
      );
    },
    close: async () => {
      if (exitCode === undefined) child.send({ op: "close", id: 0 });
      return guard("the store process to close its store and exit", exited);
    },
    kill: async () => {
      if (exitCode === undefined) child.kill("SIGKILL");
      await exited;
    },
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
  };
}

/** Terminates the backends of `applicationName` (in `states`, if given); returns the state each was in. */
export async function terminateBackends(applicationName: string, states?: readonly string[]): Promise<string[]> {
  const rows = await sql<{ state: string | null; killed: boolean }>(
    "SELECT state, pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid() AND ($2::text[] IS NULL OR state = ANY($2::text[]))",
    [applicationName, states ?? null],
  );
  return rows.filter((r) => r.killed).map((r) => r.state ?? "unknown");
}

/** The pids of the backends of `applicationName` in `state`. */
export async function backendPids(applicationName: string, state: string): Promise<number[]> {
  const rows = await sql<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = $2", [
    applicationName,
    state,
  ]);
  return rows.map((r) => r.pid);
}

/** Polls `check` every 20 ms until it holds (database state has no event to await); fails naming `what` after `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = HANG_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface FreezingProxy {
  /** The target URL with the proxy's port. */
  readonly url: string;
  /** Stops forwarding in both directions (bytes are held, sockets stay open). */
  freeze(): void;
  /** Forwards again, held bytes first. */
  thaw(): void;
  /** Sockets from the store still open. */
  openSockets(): number;
  /** Resolves once every socket that was sent bytes while frozen has been closed (or ended) by the store. */
  stalledSocketsClosed(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 port 0 in front of `targetUrl`'s server: while frozen it forwards
 * nothing and closes nothing, like a server that stopped answering or a partition that never
 * resets a connection.
 */
export async function freezingProxy(targetUrl: string): Promise<FreezingProxy> {
  const target = new URL(targetUrl);
  let frozen = false;
  const pipes = new Set<{ flush(): void; stalled: boolean; ended: boolean; closed: Promise<void> }>();
  const sockets = new Set<net.Socket>();
  // Half-open allowed: the store's goodbye (FIN) is not answered while frozen, as by a frozen server.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const held: { to: net.Socket; data: Buffer }[] = [];
    let closeResolve!: () => void;
    const pipe = {
      stalled: false,
      closed: new Promise<void>((resolve) => (closeResolve = resolve)),
      ended: false,
      flush: () => {
        for (const { to, data } of held.splice(0)) if (!to.destroyed) to.write(data);
        if (pipe.ended) end();
      },
    };
    pipes.add(pipe);
    const forward = (to: net.Socket, fromStore: boolean) => (data: Buffer) => {
      if (!frozen) return void to.write(data);
      if (fromStore) pipe.stalled = true;
      held.push({ to, data });
    };
    client.on("data", forward(upstream, true));
    upstream.on("data", forward(client, false));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    // The store closed its side: done with this socket, though while frozen nothing tells the store so.
    client.on("end", () => {
      pipe.ended = true;
      closeResolve();
      if (!frozen) end();
    });
    client.on("close", () => {
      pipes.delete(pipe);
      closeResolve();
      upstream.destroy();
    });
    upstream.on("close", () => {
      if (!frozen) end();
    });
    client.on("error", end);
    upstream.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(targetUrl);
  url.port = String(port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const pipe of pipes) pipe.flush();
    },
    openSockets: () => pipes.size,
    stalledSocketsClosed: async () => {
      const stalled = [...pipes].filter((p) => p.stalled);
      await guard(
        `the store to drop the ${stalled.length} connections whose answers never came`,
        Promise.all(stalled.map((p) => p.closed)),
      );
      return stalled.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The status of each of the schema's tasks with these ids (on the database at `url`), by id. */
export async function storedTasks(url: string, schema: string, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; status: string }>(
    `SELECT id, status FROM ${schema}.roundtrip_tasks WHERE id = ANY($1::text[])`,
    [ids],
    url,
  );
  return new Map(rows.map((r) => [r.id, r.status]));
}
