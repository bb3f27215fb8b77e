/*
 * Readiness follows the PostgreSQL task store (run by `npm run test:postgres`), on a cluster of
 * the test's own that it stops and starts:
 * - an app whose database is down when it starts answers /readyz 503 with taskStore "failed" (or
 *   "timeout"), and 200 once the cluster is up and the store opens;
 * - the cluster stopped (`pg_ctl stop -m fast`): /readyz turns 503 while /healthz stays 200, each
 *   answer within the probe's bound; started again, /readyz is 200 again, with no restart of the app.
 */
import "reflect-metadata";
import { McpApp, tasks, type HttpListener } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { HeldTool, MountTools } from "../e2e/fixtures/mount-app";
import { PostgresCluster } from "./postgres-cluster";
import { freshSchema } from "./postgres-database";
import { eventually } from "./store-under-fault";

jest.setTimeout(120_000);

const TIMEOUT_MS = 1_500;

async function readiness(listener: HttpListener): Promise<{ status: number; body: { status: string; checks?: Record<string, string> } }> {
  const started = Date.now();
  const response = await fetch(`http://127.0.0.1:${listener.port}/readyz`);
  const answer = { status: response.status, body: (await response.json()) as { status: string; checks?: Record<string, string> } };
  // Bounded by the check's timeoutMs (plus the time to answer), whatever the database does.
  expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_000);
  return answer;
}

describe("readiness over the PostgreSQL task store", () => {
  let cluster: PostgresCluster;
  let app: McpApp | undefined;

  beforeAll(async () => {
    cluster = await PostgresCluster.create();
  });
  afterAll(async () => {
    await app?.close();
    cluster.destroy();
  });

  it("follows the cluster: down at start, up, stopped, started again", async () => {
    cluster.stop("fast");
    app = McpApp.create({
      components: [MountTools, HeldTool],
      state: { secret: "postgres-readiness-secret-0123456789abcdef" },
      logger: new MemoryLogger(),
      features: [tasks({ store: cluster.url, storeOptions: { schema: freshSchema(), connectTimeoutMs: 500, queryTimeoutMs: 1_000 } })],
    });
    const listener = await app.listen({ health: { timeoutMs: TIMEOUT_MS } });

    const down = await readiness(listener);
    expect(down.status).toBe(503);
    expect(["failed", "timeout"]).toContain(down.body.checks?.taskStore);

    cluster.start();
    await eventually("readiness once the cluster is up", async () => (await readiness(listener)).status === 200);
    expect((await readiness(listener)).body).toEqual({ status: "ok", checks: { taskStore: "ok" } });

    cluster.stop("fast");
    const stopped = await readiness(listener);
    expect(stopped.status).toBe(503);
    expect(["failed", "timeout"]).toContain(stopped.body.checks?.taskStore);
    expect((await fetch(`http://127.0.0.1:${listener.port}/healthz`)).status).toBe(200);

    cluster.start();
    await eventually("readiness once the cluster is back", async () => (await readiness(listener)).status === 200);
  });
});
