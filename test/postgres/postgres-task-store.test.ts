/*
 * What the PostgreSQL store adds to the contract (run by `npm run test:postgres`):
 * - every time is the database's clock: with the app's Date.now far in the past, createdAt,
 *   expiry and lease times still follow the database;
 * - opening is idempotent and safe when several instances open a fresh schema at once (one
 *   schema version row per migration); a version-1 schema (before creation keys) is migrated in
 *   place, its tasks kept, and the creation key is a unique index; a schema newer than this code is refused with TaskStoreConfigError;
 * - a pool the app gives is not ended by close();
 * - claimNext skips a row another transaction holds locked (FOR UPDATE SKIP LOCKED) instead
 *   of waiting for it;
 * - when the LISTEN connection is killed, the store warns, polls, reconnects (logging that it
 *   listens again, also when its first retry succeeds), and a watcher still learns of a change
 *   made through another handle;
 * - a database that does not exist is TaskStoreUnavailableError (3D000), as is a closed port.
 */
import { Client, Pool } from "pg";
import { postgresMigrations } from "../../src/stores/postgres-schema";
import { PostgresTaskStore, type StoreLogger, type TaskRecord, TaskStoreConfigError, TaskStoreUnavailableError } from "../../src/stores";
import { taskInput } from "../unit/stores/task-store-contract";
import { freshSchema, postgresUrl, sql } from "./postgres-database";
import { eventually } from "./store-under-fault";

const connectionString = postgresUrl();
const schemas: string[] = [];
const stores: PostgresTaskStore[] = [];

async function open(options: Partial<Parameters<typeof PostgresTaskStore.open>[0]> = {}): Promise<PostgresTaskStore> {
  const schema = options.schema ?? freshSchema();
  if (!schemas.includes(schema)) schemas.push(schema);
  const store = await PostgresTaskStore.open({ connectionString, schema, ...options });
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const schema of schemas.splice(0)) await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  jest.restoreAllMocks();
});

describe("PostgresTaskStore", () => {
  it("takes every time from the database's clock, never the app's", async () => {
    const store = await open();
    jest.spyOn(Date, "now").mockReturnValue(Date.UTC(2001, 0, 1));
    const [clock] = await sql<{ db_now: Date }>("SELECT clock_timestamp() AS db_now");
    const { task, lease } = await store.create(taskInput({ ttlMs: 60_000 }));
    expect(Math.abs(Date.parse(task.createdAt) - clock!.db_now.getTime())).toBeLessThan(60_000);
    expect(Date.parse(task.expiresAt!) - Date.parse(task.createdAt)).toBe(60_000);
    expect(Date.parse(lease.expiresAt) - Date.parse(task.createdAt)).toBe(30_000);
    expect(Date.parse((await store.renewLease(task.id, lease, 5000)).expiresAt)).toBeGreaterThan(clock!.db_now.getTime());
  });

  it("opens a fresh schema from several instances at once, recording one version; reopening changes nothing", async () => {
    const schema = freshSchema();
    await Promise.all([open({ schema }), open({ schema }), open({ schema })]);
    await open({ schema });
    expect(await sql(`SELECT version FROM ${schema}.roundtrip_schema_version ORDER BY version`)).toEqual(
      Array.from({ length: PostgresTaskStore.SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })),
    );
  });

  it("migrates a version-1 schema in place: its tasks are kept, without a creation key, and new tasks take keys", async () => {
    const schema = freshSchema();
    schemas.push(schema);
    await sql(`CREATE SCHEMA ${schema}`);
    await sql(
      `CREATE TABLE ${schema}.roundtrip_schema_version (version integer NOT NULL PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await sql(postgresMigrations(schema)[0]!);
    await sql(`INSERT INTO ${schema}.roundtrip_schema_version (version) VALUES (1)`);
    await sql(
      `INSERT INTO ${schema}.roundtrip_tasks (id, principal, tool_name, input, status, created_at, last_updated_at, ttl_ms, expires_at, input_requests, input_responses,
        input_keys, retry_policy, max_attempts, attempt, idempotency_key, lease_owner, lease_token, lease_expires_at, revision)
       VALUES ('old-task-id-0000000000', 'alice', 'slow_compute', '{}', 'working', now(), now(), 60000, now() + interval '1 minute', '{}', '{}', '[]', 'fail', 1, 1,
        'k', 'w', 't', now() + interval '30 seconds', 1)`,
    );
    const [one, two] = await Promise.all([open({ schema }), open({ schema })]);
    const kept = await one.get("old-task-id-0000000000", "alice");
    expect(kept).toMatchObject({ id: "old-task-id-0000000000", status: "working" });
    expect(kept!.creationKey).toBeUndefined();
    const { task } = await one.create(taskInput({ creationKey: "retry-1" }));
    await expect(two.create(taskInput({ creationKey: "retry-1" }))).rejects.toMatchObject({ code: "task-exists", task: { id: task.id } });
    expect(await sql(`SELECT max(version) AS v FROM ${schema}.roundtrip_schema_version`)).toEqual([
      { v: PostgresTaskStore.SCHEMA_VERSION },
    ]);
    const [index] = await sql<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'roundtrip_tasks_by_creation_key'`,
      [schema],
    );
    expect(index!.indexdef).toMatch(/^CREATE UNIQUE INDEX/);
  });

  it("refuses a schema newer than this code", async () => {
    const schema = freshSchema();
    await open({ schema });
    await sql(`INSERT INTO ${schema}.roundtrip_schema_version (version) VALUES ($1)`, [PostgresTaskStore.SCHEMA_VERSION + 1]);
    const opening = PostgresTaskStore.open({ connectionString, schema });
    await expect(opening).rejects.toThrow(TaskStoreConfigError);
    await expect(opening).rejects.toThrow(`is version ${PostgresTaskStore.SCHEMA_VERSION + 1}, newer than this roundtrip-mcp knows`);
  });

  it("refuses a schema name that is not a plain identifier", async () => {
    await expect(PostgresTaskStore.open({ connectionString, schema: 'x"; DROP TABLE y; --' })).rejects.toThrow(TaskStoreConfigError);
  });

  it("does not end a pool the app gave it", async () => {
    const pool = new Pool({ connectionString });
    const store = await open({ connectionString: undefined, pool });
    await store.close();
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  it("claimNext skips a task another transaction holds locked instead of waiting", async () => {
    let now = Date.UTC(2030, 0, 1);
    const store = await open({ testClock: () => now });
    const locked = await store.create(taskInput({ retryPolicy: "rerun" }));
    const free = await store.create(taskInput({ retryPolicy: "rerun" }));
    now += 60_000;
    const holder = new Client({ connectionString });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM ${store.schema}.roundtrip_tasks WHERE id = $1 FOR UPDATE`, [locked.task.id]);
      expect((await store.claimNext("worker-b", 30_000))?.task.id).toBe(free.task.id);
      expect(await store.claimNext("worker-b", 30_000)).toBeUndefined();
      await holder.query("ROLLBACK");
      expect((await store.claimNext("worker-b", 30_000))?.task.id).toBe(locked.task.id);
    } finally {
      await holder.end();
    }
  });

  it("keeps watchers informed when its LISTEN connection is killed", async () => {
    const warnings: string[] = [];
    const logger: StoreLogger = { warn: (message) => warnings.push(message) };
    const store = await open({ logger, watchPollMs: 50 });
    const other = await open({ schema: store.schema });
    const { task, lease } = await store.create(taskInput());
    await store.requestInput(task.id, lease, { a: {}, b: {} });
    const told: TaskRecord[] = [];
    let resolveAnswered: () => void;
    const answered = new Promise<void>((resolve) => (resolveAnswered = resolve));
    await store.watch(task.id, "alice", (state) => {
      if (state) told.push(state);
      if (state?.inputResponses.a === "after the kill") resolveAnswered();
    });
    const [killed] = await sql<{ killed: boolean }>(
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query = $1 AND application_name = 'roundtrip-mcp'",
      [`LISTEN ${store.channel}`],
    );
    expect(killed).toEqual({ killed: true });
    await other.recordAnswers(task.id, "alice", { a: "after the kill" });
    await answered;
    // The database stayed up, so the first retry listens again: that restore is logged too.
    await eventually(
      "the store to log that it listens again",
      async () => warnings.includes("The PostgreSQL task store is listening for changes again"),
      10_000,
    );
    expect(warnings.filter((w) => /LISTEN|listen/.test(w))).toEqual([
      "The PostgreSQL task store lost its LISTEN connection; polling until it is back",
      "The PostgreSQL task store is listening for changes again",
    ]);
    expect(told.at(-1)!.status).toBe("input_required");
  });

  it("reports a database that does not exist as TaskStoreUnavailableError", async () => {
    const url = new URL(connectionString);
    url.pathname = "/no_such_database";
    const opening = PostgresTaskStore.open({ connectionString: url.toString() });
    await expect(opening).rejects.toThrow(TaskStoreUnavailableError);
    await expect(opening).rejects.toThrow("The PostgreSQL task store is unavailable (3D000)");
  });
});
