/*
 * The SessionStateStore contract (test/unit/stores/session-state-contract.ts) on the PostgreSQL
 * bus's session state: each test a bus on a schema of its own (dropped afterwards) in the database
 * of `npm run test:postgres`. Also pins that two buses on one schema share one state (what one
 * instance records, another reads), that the tables are made by whichever instance needs them
 * first, and that a database gone away is a TaskStoreUnavailableError, never a hang.
 */
import { PostgresMessageBus, TaskStoreUnavailableError } from "../../src/stores/index";
import { sessionStateOf } from "../../src/stores/session-state";
import { sessionStateContract } from "../unit/stores/session-state-contract";
import { PostgresCluster } from "./postgres-cluster";
import { freshSchema, postgresUrl, sql } from "./postgres-database";

const buses: PostgresMessageBus[] = [];
const schemas: string[] = [];

async function bus(schema: string, connectionString = postgresUrl()): Promise<PostgresMessageBus> {
  const opened = await PostgresMessageBus.open({ connectionString, schema, poolSize: 2, connectTimeoutMs: 1000, queryTimeoutMs: 2000 });
  buses.push(opened);
  return opened;
}

afterAll(async () => {
  for (const b of buses) await b.close();
  for (const schema of schemas) await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

sessionStateContract("PostgresSessionState", async () => {
  const schema = freshSchema();
  schemas.push(schema);
  return { state: sessionStateOf(await bus(schema))!, prefix: "" };
});

describe("the PostgreSQL bus's session state", () => {
  it("is shared by every bus on the schema", async () => {
    const schema = freshSchema();
    schemas.push(schema);
    const [a, b] = [sessionStateOf(await bus(schema))!, sessionStateOf(await bus(schema))!];
    expect(a.shared).toBe(true);
    await a.beat("instance-a", 60_000);
    expect(await b.isAlive("instance-a")).toBe(true);
    await a.saveSettings("s", { level: "error", subscriptions: [] }, 60_000);
    expect(await b.loadSettings("s")).toEqual({ level: "error", subscriptions: [] });
  });

  it("fails with TaskStoreUnavailableError while the database is away, and works again once it is back", async () => {
    const cluster = await PostgresCluster.create();
    try {
      const state = sessionStateOf(await bus("public", cluster.url))!;
      await state.beat("x", 60_000);
      cluster.stop("fast");
      await expect(state.isAlive("x")).rejects.toBeInstanceOf(TaskStoreUnavailableError);
      cluster.start();
      let alive: boolean | undefined;
      for (let i = 0; i < 100 && alive === undefined; i++) {
        alive = await state.isAlive("x").catch(() => undefined);
        if (alive === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(alive).toBe(true);
    } finally {
      cluster.destroy();
    }
  });
});
