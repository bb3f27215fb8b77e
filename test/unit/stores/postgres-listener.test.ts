/*
 * PostgresListener's reconnect, over a scripted pool (no database: each connect is refused or
 * answered as the test says, on fake timers), so the moments a real cluster only hits under load
 * happen every run:
 * - a loss whose first reconnect succeeds (the database was back before the retry fired) logs
 *   lost then restored and tells the owner restored, as one after failed retries does (lost,
 *   retrying once, restored); the backoff doubles from 100 ms and stops growing at 5 s;
 * - a start() of the owner's own (a watch) that connects while a retry is pending is the restore:
 *   restored is logged and told at once, and the pending retry does not connect again;
 * - a connection that fails in the same tick as the answer to its last LISTEN is never taken as
 *   listening: start() rejects with its error, it is released once, and on a reconnect the
 *   listener retries and is restored;
 * - stop() while a retry is pending: no connect afterwards, nothing logged.
 */
import { EventEmitter } from "node:events";
import type { PgPool, PgPoolClient } from "../../../src/stores/pg-client";
import { type ListenerEvents, PostgresListener } from "../../../src/stores/postgres-listener";

const MESSAGES = { lost: "lost", retrying: "retrying", restored: "restored" };

class FakeClient extends EventEmitter {
  readonly queries: string[] = [];
  readonly releases: (Error | boolean | undefined)[] = [];
  /** Fails the connection right after the answer to its next LISTEN, before the caller resumes. */
  failAfterListen = false;

  query(query: string | { text: string }): Promise<unknown> {
    const text = typeof query === "string" ? query : query.text;
    this.queries.push(text);
    const answer = Promise.resolve({ rows: [], rowCount: 0 });
    // pg parses an error read in the same chunk as ReadyForQuery before the awaiting code resumes.
    if (this.failAfterListen && text.startsWith("LISTEN"))
      this.emit("error", new Error("terminating connection due to administrator command"));
    return answer;
  }

  release(destroy?: Error | boolean): void {
    if (this.releases.length > 0) throw new Error("Release called on client which has already been released to the pool.");
    this.releases.push(destroy);
  }
}

/** A pool whose connects follow a script: "refuse", "accept", or "fail-after-listen". */
class ScriptedPool {
  readonly clients: FakeClient[] = [];
  connects = 0;
  constructor(private readonly script: ("refuse" | "accept" | "fail-after-listen")[]) {}

  connect(): Promise<FakeClient> {
    const step = this.script[this.connects++] ?? "refuse";
    if (step === "refuse") return Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
    const client = new FakeClient();
    client.failAfterListen = step === "fail-after-listen";
    this.clients.push(client);
    return Promise.resolve(client);
  }

  /** The n-th client connected (0 first); throws when the script has not connected it yet. */
  client(n: number): FakeClient {
    const client = this.clients[n];
    if (client === undefined) throw new Error(`client ${n} was never connected (${this.clients.length} were)`);
    return client;
  }
}

function listenerOn(script: ConstructorParameters<typeof ScriptedPool>[0]) {
  const pool = new ScriptedPool(script);
  const logged: string[] = [];
  const told: string[] = [];
  const events: ListenerEvents = {
    notification: () => undefined,
    lost: () => void told.push("lost"),
    restored: () => void told.push("restored"),
  };
  const listener = new PostgresListener(pool as unknown as PgPool, events, { warn: (message) => logged.push(message) }, MESSAGES, 60_000, [
    "roundtrip_tasks",
  ]);
  return { pool, listener, logged, told };
}

/** The connection ends as `pg_ctl stop -m fast` ends it: an error, then the end. */
function terminate(client: PgPoolClient | FakeClient): void {
  (client as FakeClient).emit("error", new Error("terminating connection due to administrator command"));
  (client as FakeClient).emit("end");
}

beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] }));
afterEach(() => jest.useRealTimers());

describe("PostgresListener reconnecting", () => {
  it("logs and tells restored when the first reconnect succeeds", async () => {
    const { pool, listener, logged, told } = listenerOn(["accept", "accept"]);
    await listener.start();
    terminate(pool.client(0));
    expect(listener.listening).toBe(false);
    expect(logged).toEqual(["lost"]);
    expect(pool.client(0).releases).toHaveLength(1);

    await jest.advanceTimersByTimeAsync(100);
    expect(pool.connects).toBe(2);
    expect(listener.listening).toBe(true);
    expect(pool.client(1).queries).toEqual(["LISTEN roundtrip_tasks"]);
    expect(logged).toEqual(["lost", "restored"]);
    expect(told).toEqual(["lost", "restored"]);
    listener.stop();
  });

  it("logs lost, retrying once and restored across failed retries, with a backoff capped at 5 s", async () => {
    const { pool, listener, logged, told } = listenerOn(["accept", ...Array<"refuse">(8).fill("refuse"), "accept"]);
    await listener.start();
    terminate(pool.client(0));
    // 100, 200, 400, 800, 1600, 3200, then 5000 each: the ninth retry is the first to be answered.
    const waits = [100, 200, 400, 800, 1600, 3200, 5000, 5000];
    for (const [n, wait] of waits.entries()) {
      await jest.advanceTimersByTimeAsync(wait - 1);
      expect(pool.connects).toBe(n + 1);
      await jest.advanceTimersByTimeAsync(1);
      expect(pool.connects).toBe(n + 2);
    }
    await jest.advanceTimersByTimeAsync(4999);
    expect(pool.connects).toBe(9);
    expect(listener.listening).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(pool.connects).toBe(10);
    expect(listener.listening).toBe(true);
    expect(logged).toEqual(["lost", "retrying", "restored"]);
    expect(told).toEqual(["lost", "restored"]);

    // Restored resets the backoff: the next loss retries after 100 ms again.
    terminate(pool.client(1));
    await jest.advanceTimersByTimeAsync(100);
    expect(pool.connects).toBe(11);
    listener.stop();
  });

  it("takes the owner's own start() during a pending retry as the restore, and the retry does not connect again", async () => {
    const { pool, listener, logged, told } = listenerOn(["accept", "accept", "accept"]);
    await listener.start();
    terminate(pool.client(0));
    await listener.start();
    expect(listener.listening).toBe(true);
    expect(logged).toEqual(["lost", "restored"]);
    expect(told).toEqual(["lost", "restored"]);

    await jest.advanceTimersByTimeAsync(10_000);
    expect(pool.connects).toBe(2);
    expect(logged).toEqual(["lost", "restored"]);
    expect(told).toEqual(["lost", "restored"]);
    listener.stop();
  });

  it("never takes a connection that failed with the answer to its last LISTEN as listening", async () => {
    const { pool, listener, logged } = listenerOn(["fail-after-listen"]);
    await expect(listener.start()).rejects.toThrow("terminating connection due to administrator command");
    expect(listener.listening).toBe(false);
    expect(pool.client(0).releases).toEqual([expect.objectContaining({ message: "terminating connection due to administrator command" })]);
    expect(logged).toEqual([]);
  });

  it("retries a reconnect whose connection failed with the answer to its LISTEN, then is restored", async () => {
    const { pool, listener, logged, told } = listenerOn(["accept", "fail-after-listen", "accept"]);
    await listener.start();
    terminate(pool.client(0));
    await jest.advanceTimersByTimeAsync(100);
    expect(pool.connects).toBe(2);
    expect(listener.listening).toBe(false);
    expect(pool.client(1).releases).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(200);
    expect(pool.connects).toBe(3);
    expect(listener.listening).toBe(true);
    expect(logged).toEqual(["lost", "retrying", "restored"]);
    expect(told).toEqual(["lost", "restored"]);
    listener.stop();
  });

  it("connects no more and logs nothing once stopped with a retry pending", async () => {
    const { pool, listener, logged } = listenerOn(["accept", "accept"]);
    await listener.start();
    terminate(pool.client(0));
    listener.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(pool.connects).toBe(1);
    expect(logged).toEqual(["lost"]);
  });
});
