/*
 * PostgresMessageBus on a real PostgreSQL (run by `npm run test:postgres`). Pins:
 * - a message published on one bus reaches every subscriber of its channel on every bus of the
 *   database (two pools here, as two instances), the publisher's own included, in publish order,
 *   and no subscriber of another channel; any string is a channel (quotes, spaces, unicode, a
 *   thousand characters), and channels that differ only in case or by a character stay apart;
 * - buses of another schema on the same database never hear each other;
 * - a message of 7998 bytes travels inline and one of 7999 bytes and more (300 KB here, multibyte
 *   text included) through a row, arriving whole and in order with inline ones around it; a
 *   message over maxMessageBytes is refused with a RangeError naming the bound; rows older than
 *   largeMessageTtlMs are deleted by the next large publish;
 * - an ended subscription receives nothing more, and its channel is no longer listened on;
 * - a handler that throws is logged and the others still receive the message;
 * - openMessageBus opens a PostgreSQL bus from its URL;
 * - the LISTEN connection terminated: the bus logs it, turns unhealthy, and listens again on
 *   every channel by itself, logging that it does (its first retry succeeds: the database is up);
 * - in two child processes on a cluster of the test's own, the cluster stopped (fast) and started
 *   again: both buses turn unhealthy, publish rejects in bounded time with
 *   TaskStoreUnavailableError naming the bus while a subscribe resolves, both turn healthy again
 *   by themselves, the subscriptions made before the stop and the one made while it was down
 *   receive what is published after the restart, neither
 *   process crashed, and both close and exit 0.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type JsonValue, PostgresMessageBus, type StoreLogger, openMessageBus } from "../../src/stores";
import { PostgresCluster } from "./postgres-cluster";
import { freshSchema, postgresUrl, sql } from "./postgres-database";
import { type StoreProcess, eventually, guard, named, startStore } from "./store-under-fault";

jest.setTimeout(120_000);

const url = postgresUrl();
const BUS_PROCESS = path.join(__dirname, "fixtures", "bus-process.ts");
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openBus(options: Partial<Parameters<typeof PostgresMessageBus.open>[0]> = {}): Promise<PostgresMessageBus> {
  const bus = await PostgresMessageBus.open({ connectionString: url, ...options });
  cleanups.push(() => bus.close());
  return bus;
}

/** Two buses (two pools) on one schema, as two instances of one deployment. */
async function twoBuses(options: Partial<Parameters<typeof PostgresMessageBus.open>[0]> = {}) {
  const schema = freshSchema();
  cleanups.push(() => sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  return Promise.all([openBus({ schema, ...options }), openBus({ schema, ...options })]);
}

/** Collects what a subscription receives; `next(n)` resolves once it has n messages. */
function inbox() {
  const messages: JsonValue[] = [];
  let waiters: (() => void)[] = [];
  return {
    messages,
    handler: (message: JsonValue) => {
      messages.push(message);
      const current = waiters;
      waiters = [];
      for (const wake of current) wake();
    },
    next: (count: number) =>
      guard(
        `${count} messages (have ${messages.length})`,
        new Promise<JsonValue[]>((resolve) => {
          const check = () => (messages.length >= count ? resolve(messages) : waiters.push(check));
          check();
        }),
      ),
  };
}

describe("PostgresMessageBus", () => {
  it("delivers to every subscriber of the channel on every bus of the database, in order, and to no other channel", async () => {
    const [a, b] = await twoBuses();
    const onA = inbox();
    const onB = inbox();
    const elsewhere = inbox();
    await a.subscribe("session/1", onA.handler);
    await b.subscribe("session/1", onB.handler);
    await b.subscribe("session/2", elsewhere.handler);
    for (let i = 0; i < 5; i++) await b.publish("session/1", { i });
    expect(await onA.next(5)).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    expect(await onB.next(5)).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
    // A marker on the other channel, published last: once it arrived, nothing else came there.
    await a.publish("session/2", "marker");
    expect(await elsewhere.next(1)).toEqual(["marker"]);
  });

  it("takes any string as a channel, and keeps channels that differ by case or one character apart", async () => {
    const [a, b] = await twoBuses();
    const channels = ['he said "x"; DROP TABLE y; --', "Session", "session", "säße ☃ 🎉", "x".repeat(1000), ""];
    const boxes = channels.map(() => inbox());
    for (const [i, channel] of channels.entries()) await a.subscribe(channel, boxes[i]!.handler);
    for (const [i, channel] of channels.entries()) await b.publish(channel, { i });
    for (const [i] of channels.entries()) expect(await boxes[i]!.next(1)).toEqual([{ i }]);
    // Each got exactly its own: a second round, then every box holds two, its own each time.
    for (const [i, channel] of channels.entries()) await b.publish(channel, { i, again: true });
    for (const [i] of channels.entries()) expect(await boxes[i]!.next(2)).toEqual([{ i }, { i, again: true }]);
  });

  it("keeps buses of other schemas on one database apart", async () => {
    const [a] = await twoBuses();
    const [other] = await twoBuses();
    const onA = inbox();
    const onOther = inbox();
    await a.subscribe("c", onA.handler);
    await other.subscribe("c", onOther.handler);
    await other.publish("c", "for other");
    await a.publish("c", "for a");
    expect(await onA.next(1)).toEqual(["for a"]);
    expect(await onOther.next(1)).toEqual(["for other"]);
  });

  it("sends large messages through a row, whole and in order with inline ones, and refuses one over maxMessageBytes", async () => {
    const [a, b] = await twoBuses({ maxMessageBytes: 400_000 });
    const got = inbox();
    await a.subscribe("big", got.handler);
    // JSON.stringify of a string of n ASCII letters is n + 2 bytes: 7998 bytes inline, 7999 through a row.
    const inlineMax = "a".repeat(7996);
    const rowMin = "b".repeat(7997);
    const large = { text: "ß☃🎉".repeat(30_000), n: 1 }; // 270 KB of UTF-8, 90,000 code points of 2 to 4 bytes
    await b.publish("big", inlineMax);
    await b.publish("big", rowMin);
    await b.publish("big", "small after");
    await b.publish("big", large);
    await b.publish("big", "last");
    expect(await got.next(5)).toEqual([inlineMax, rowMin, "small after", large, "last"]);
    const [counted] = await sql<{ count: string }>(`SELECT count(*) AS count FROM ${b.schema}.roundtrip_bus_messages`);
    expect(Number(counted!.count)).toBe(2);

    const refused = b.publish("big", "x".repeat(400_000));
    await expect(refused).rejects.toThrow(RangeError);
    await expect(refused).rejects.toThrow("is 400002 bytes of JSON, over maxMessageBytes (400000)");
  });

  it("deletes the rows of large messages older than largeMessageTtlMs on the next large publish", async () => {
    const [a] = await twoBuses({ largeMessageTtlMs: 1000 });
    const got = inbox();
    await a.subscribe("big", got.handler);
    await a.publish("big", "x".repeat(10_000));
    await got.next(1);
    // Aged by hand rather than waited for: the database's clock decides.
    await sql(`UPDATE ${a.schema}.roundtrip_bus_messages SET created_at = created_at - interval '2 seconds'`);
    await a.publish("big", "y".repeat(10_000));
    await got.next(2);
    const rows = await sql<{ body: string }>(`SELECT body FROM ${a.schema}.roundtrip_bus_messages`);
    expect(rows.map((r) => r.body.slice(1, 2))).toEqual(["y"]);
  });

  it("stops delivering to an ended subscription, and no longer listens on a channel nobody subscribes to", async () => {
    const name = `bus_${randomBytes(4).toString("hex")}`;
    const [a, b] = await twoBuses({ connectionString: named(url, name) });
    const first = inbox();
    const second = inbox();
    const endFirst = await a.subscribe("c", first.handler);
    const endSecond = await a.subscribe("c", second.handler);
    await b.publish("c", 1);
    await first.next(1);
    await endFirst();
    await b.publish("c", 2);
    expect(await second.next(2)).toEqual([1, 2]);
    expect(first.messages).toEqual([1]);
    await endSecond();
    await endSecond(); // idempotent
    // The last statement of a's LISTEN connection (b's never listened on anything).
    const last = await sql<{ query: string }>(
      "SELECT query FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%LISTEN rt_bus_%'",
      [name],
    );
    expect(last.map((r) => r.query.split(" ")[0])).toEqual(["UNLISTEN"]);
  });

  it("logs a handler that throws and still delivers to the others", async () => {
    const warnings: string[] = [];
    const logger: StoreLogger = { warn: (message) => warnings.push(message) };
    const [a] = await twoBuses({ logger });
    const got = inbox();
    await a.subscribe("c", () => {
      throw new Error("boom");
    });
    await a.subscribe("c", got.handler);
    await a.publish("c", "x");
    expect(await got.next(1)).toEqual(["x"]);
    expect(warnings).toContain("A message bus subscriber threw; the others still receive the message");
  });

  it("is opened from a postgres:// URL by openMessageBus", async () => {
    const schema = freshSchema();
    cleanups.push(() => sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    const bus = await openMessageBus(url, { schema });
    cleanups.push(() => bus.close());
    expect(bus).toBeInstanceOf(PostgresMessageBus);
    const got = inbox();
    await bus.subscribe("c", got.handler);
    await bus.publish("c", { via: "url" });
    expect(await got.next(1)).toEqual([{ via: "url" }]);
    expect(bus.healthy).toBe(true);
    await bus.close();
    expect(bus.healthy).toBe(false);
    await expect(bus.publish("c", 1)).rejects.toThrow("the bus is closed");
  });

  it("listens again on every channel by itself when its LISTEN connection is terminated", async () => {
    const warnings: string[] = [];
    const name = `bus_${randomBytes(4).toString("hex")}`;
    const [a, b] = await twoBuses({ connectionString: named(url, name), logger: { warn: (message) => warnings.push(message) } });
    const one = inbox();
    const two = inbox();
    await a.subscribe("one", one.handler);
    await a.subscribe("two", two.handler);
    const killed = await sql<{ killed: boolean }>(
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN rt_bus_%' AND pid <> pg_backend_pid()",
      [name],
    );
    expect(killed).toEqual([{ killed: true }]); // a's LISTEN connection (b listens on nothing)
    await eventually("the bus to notice the loss", async () => warnings.some((w) => w.startsWith("The PostgreSQL message bus lost")));
    await eventually("both buses healthy again", async () => a.healthy && b.healthy);
    expect(warnings.filter((w) => /LISTEN|listen/.test(w))).toEqual([
      "The PostgreSQL message bus lost its LISTEN connection; publish fails until it is back",
      "The PostgreSQL message bus is listening again",
    ]);
    await b.publish("one", 1);
    await b.publish("two", 2);
    expect(await one.next(1)).toEqual([1]);
    expect(await two.next(1)).toEqual([2]);
  });
});

describe("PostgresMessageBus when the database goes away", () => {
  const processes: StoreProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.kill()));
  });

  it("survives the cluster stopped and started again: clear errors while it is down, subscriptions back by themselves, no crash", async () => {
    const cluster = await PostgresCluster.create();
    cleanups.push(() => cluster.destroy());
    const options = { connectionString: cluster.url, connectTimeoutMs: 1000, queryTimeoutMs: 2000 };
    const buses = await Promise.all([startStore(options, BUS_PROCESS), startStore(options, BUS_PROCESS)]);
    processes.push(...buses);
    const [a, b] = buses;
    await Promise.all(buses.map((p) => p.request("subscribe", { channel: "answers" })));
    expect(await b.request("publish", { channel: "answers", message: "before" })).toMatchObject({ ok: true });
    await Promise.all(buses.map((p) => p.request("until-received", { channel: "answers", count: 1 })));

    cluster.stop("fast");
    await Promise.all(buses.map((p) => p.warned("The PostgreSQL message bus lost its LISTEN connection")));
    for (const p of buses) expect(await p.request("healthy")).toEqual({ healthy: false });
    const refused = await a.request("publish", { channel: "answers", message: "while down" });
    expect(refused).toMatchObject({ ok: false, name: "TaskStoreUnavailableError" });
    expect(refused.message).toMatch(/^The PostgreSQL message bus is unavailable/);
    expect(refused.ms).toBeLessThan(3000);
    expect(await b.request("subscribe", { channel: "made while down" })).toEqual({});

    cluster.start();
    await eventually("both buses healthy again", async () =>
      (await Promise.all(buses.map((p) => p.request<{ healthy: boolean }>("healthy")))).every((h) => h.healthy),
    );
    await Promise.all(buses.map((p) => p.warned("The PostgreSQL message bus is listening again")));
    expect(await a.request("publish", { channel: "answers", message: "after" })).toMatchObject({ ok: true });
    for (const p of buses)
      expect((await p.request("until-received", { channel: "answers", count: 2 })).messages).toEqual(["before", "after"]);
    expect(await a.request("publish", { channel: "made while down", message: "late" })).toMatchObject({ ok: true });
    expect((await b.request("until-received", { channel: "made while down", count: 1 })).messages).toEqual(["late"]);
    expect(buses.map((p) => p.alive())).toEqual([true, true]);
    expect(await Promise.all(buses.map((p) => p.close()))).toEqual([0, 0]);
  });
});
