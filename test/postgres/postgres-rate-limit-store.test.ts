/*
 * The PostgreSQL rate limit store (run by `npm run test:postgres`):
 * - two apps, each with a store of its own on one database, share one budget per principal and
 *   component: calls alternating between them stop at the limit on both (-32010), while another
 *   principal still has its own budget;
 * - takes racing on one key from two stores are counted exactly: of 24 concurrent calls against a
 *   limit of 10, exactly 10 are allowed (the upsert holds the row's lock);
 * - open() creates the table idempotently (twice, at once, on one schema); sweep() deletes only
 *   buckets that have refilled;
 * - an outage never takes the process down nor refuses a call for it: with the database frozen
 *   (a proxy that stops forwarding), calls are decided by the per-instance buckets within
 *   storeTimeoutMs and one warning is logged; with the connection cut (the proxy closed), the same,
 *   and an idle connection's error is logged by the store, not thrown.
 */
import "reflect-metadata";
import { ErrorCode, McpApp, Tool } from "../../src/index";
import { PostgresRateLimitStore } from "../../src/stores/index";
import { createTestClient, MemoryLogger, type TestClient } from "../../src/testing/index";
import { freshSchema, postgresUrl, sql } from "./postgres-database";
import { freezingProxy } from "./store-under-fault";

const HOUR = 3_600_000;

class Metered {
  @Tool({ rateLimit: { limit: 4, windowMs: HOUR } })
  metered() {
    return "ok";
  }
}

const stores: PostgresRateLimitStore[] = [];
async function open(schema: string, connectionString = postgresUrl(), logger?: MemoryLogger) {
  const store = await PostgresRateLimitStore.open({ connectionString, schema, connectTimeoutMs: 1000, queryTimeoutMs: 2000, logger });
  stores.push(store);
  return store;
}
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

const call = (client: TestClient) => client.raw("tools/call", { name: "metered", arguments: {} });

describe("PostgresRateLimitStore", () => {
  it("gives two apps on one database one budget per principal and component", async () => {
    const schema = freshSchema();
    const [storeA, storeB] = await Promise.all([open(schema), open(schema)]);
    const a = await createTestClient([Metered], { app: { rateLimits: { store: storeA } } });
    const b = await createTestClient([Metered], { app: { rateLimits: { store: storeB } } });
    try {
      for (const client of [a, b, a, b]) expect((await call(client.as("alice"))).result).toBeDefined();
      for (const client of [a, b]) {
        const refused = await call(client.as("alice"));
        expect(refused.error).toMatchObject({ code: ErrorCode.RateLimited, data: { limit: 4, windowMs: HOUR } });
        expect((refused.error!.data as { retryAfter: number }).retryAfter).toBeGreaterThan(800);
      }
      expect((await call(b.as("bob"))).result).toBeDefined();
      const rows = await sql<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.roundtrip_rate_buckets`);
      expect(Number(rows[0]!.n)).toBe(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("counts racing takes from two stores exactly", async () => {
    const schema = freshSchema();
    const [storeA, storeB] = await Promise.all([open(schema), open(schema)]);
    const rule = { limit: 10, windowMs: HOUR };
    const decisions = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? storeA : storeB).take("k", rule)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterMs > 0 && d.remaining === 0)).toBe(true);
  });

  it("sweeps only the buckets that have refilled", async () => {
    const schema = freshSchema();
    const store = await open(schema);
    await store.take("idle", { limit: 2, windowMs: HOUR });
    await store.take("busy", { limit: 2, windowMs: HOUR });
    await sql(`UPDATE ${schema}.roundtrip_rate_buckets SET full_at = now() - interval '1 second' WHERE key = 'idle'`);
    expect(await store.sweep()).toBe(1);
    expect((await sql<{ key: string }>(`SELECT key FROM ${schema}.roundtrip_rate_buckets`)).map((r) => r.key)).toEqual(["busy"]);
  });

  it.each(["frozen", "cut"] as const)("fails open to the per-instance buckets when the database is %s", async (fault) => {
    const proxy = await freezingProxy(postgresUrl());
    const logger = new MemoryLogger();
    const store = await open(freshSchema(), proxy.url, logger);
    const app = McpApp.create({ components: [Metered], state: { ephemeral: true }, logger, rateLimits: { store, storeTimeoutMs: 300 } });
    const client = await createTestClient(app);
    try {
      expect((await call(client)).result).toBeDefined();
      if (fault === "frozen") proxy.freeze();
      else await proxy.close();
      const started = Date.now();
      // The per-instance bucket starts full: 4 more calls, then its own refusal.
      for (let i = 0; i < 4; i++) expect((await call(client)).result).toBeDefined();
      expect((await call(client)).error?.code).toBe(ErrorCode.RateLimited);
      // Each call waited at most about storeTimeoutMs (a cut connection fails at once).
      expect(Date.now() - started).toBeLessThan(5 * 300 + 2000);
      expect(logger.entries.filter((e) => e.message.startsWith("rate limit store unreachable"))).toHaveLength(1);
    } finally {
      await client.close();
      await app.close();
      proxy.thaw();
      await proxy.close();
    }
  });
});
