/*
 * The TaskStore contract (test/unit/stores/task-store-contract.ts) on the PostgreSQL store:
 * each test gets a schema of its own (dropped afterwards) in the database of
 * `npm run test:postgres`; "another handle" is a second store with a pool of its own; time moves
 * through the store's test clock, which replaces the database's clock inside every query (a test
in postgres-task-store.test.ts pins that, without it, every time is the database's).
 */
import { PostgresTaskStore, type TaskStore } from "../../src/stores";
import { describeTaskStoreContract } from "../unit/stores/task-store-contract";
import { freshSchema, postgresUrl, sql } from "./postgres-database";

const connectionString = postgresUrl();

describeTaskStoreContract("postgres", {
  propertyRuns: 50,
  async open(settings) {
    let now = Date.UTC(2030, 0, 1);
    const schema = freshSchema();
    const handles: TaskStore[] = [];
    const openHandle = async () => {
      const handle = await PostgresTaskStore.open({ ...settings, connectionString, schema, poolSize: 4, testClock: () => now });
      handles.push(handle);
      return handle;
    };
    return {
      store: await openHandle(),
      second: openHandle,
      advance: (ms) => {
        now += ms;
      },
      dispose: async () => {
        await Promise.all(handles.map((h) => h.close()));
        await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    };
  },
});
