// Pins client.as(principal, { scopes }) of createHttpTestClient: on an app the kit listens on, a
// listener of its own with `auth`, whose stand-in verifier grants exactly those scopes, so the real
// OAuth path over HTTP applies with no authorization server:
// - lists show only what the scopes allow (cacheScope "private"), and the component sees
//   ctx.authorization (the scopes as granted, sub = the principal);
// - a call without a needed scope is 403 with the full insufficient_scope challenge
//   (resource_metadata of that listener, every scope needed) and -32003, and the method never runs;
// - a task's tool scopes on tasks/get over the same path: 403 for a reader, the task for the writer;
// - the same principal with other scopes is another listener; a request without the kit's token
//   on a scoped listener is 401;
// - refused with a message saying what to do: as(null, { scopes }) (a token names a principal)
//   and scopes against a server at a URL.
import { McpApp, Result, Scopes, Tool, Ctx, type RequestContext } from "roundtrip-mcp";
import { createHttpTestClient, MemoryLogger, type TestClient } from "roundtrip-mcp/testing";
import { tasks } from "../../src/features/tasks/tasks-feature";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

let ran = 0;
@Scopes("reports:read")
class Reports {
  @Tool({ description: "Reads a report" })
  read_report(@Ctx() ctx: RequestContext) {
    return Result.structured({ scopes: ctx.authorization?.scopes ?? null, sub: ctx.authorization?.subject ?? null });
  }

  @Tool({ description: "Writes a report", scopes: ["reports:write"] })
  write_report() {
    ran++;
    return Result.text("written");
  }

  @Tool({ description: "Runs as a task", task: "optional", scopes: ["reports:write"] })
  async long_report() {
    return Result.text("done");
  }
}

describe("client.as(principal, { scopes }) over HTTP (createHttpTestClient)", () => {
  let client: TestClient;
  beforeAll(async () => {
    const app = McpApp.create({
      components: [Reports],
      state: { ephemeral: true },
      logger: new MemoryLogger(),
      features: [tasks({ store: "memory:" })],
    });
    client = await createHttpTestClient(app, { capabilities: TASKS });
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });

  const names = async (who: TestClient) =>
    ((await who.request("tools/list")).result as { tools: { name: string }[] }).tools.map((t) => t.name);

  it("filters the lists and gives the component the granted scopes and principal", async () => {
    const reader = client.as("alice", { scopes: ["reports:read"] });
    expect(await names(reader)).toEqual(["read_report"]);
    expect((await reader.request("tools/list")).result).toMatchObject({ cacheScope: "private" });
    expect(await names(client.as("alice", { scopes: ["reports:read", "reports:write"] }))).toEqual([
      "long_report",
      "read_report",
      "write_report",
    ]);
    expect(await names(client.as("alice", { scopes: [] }))).toEqual([]);
    expect((await reader.callTool("read_report")).result.structuredContent).toEqual({ scopes: ["reports:read"], sub: "alice" });
  });

  it("refuses a call without a needed scope 403 with the listener's full challenge, and never runs it", async () => {
    ran = 0;
    const reader = client.as("bob", { scopes: ["reports:read"] });
    const round = await reader.exchange("tools/call", { name: "write_report", arguments: {}, _meta: reader.meta() });
    expect(round.http?.status).toBe(403);
    const challenge = round.http?.headers["www-authenticate"];
    expect(challenge).toMatch(
      /^Bearer error="insufficient_scope", error_description="[^"]+", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="reports:read reports:write"$/,
    );
    expect(round.response.error).toMatchObject({ code: -32003, data: { requiredScopes: ["reports:read", "reports:write"] } });
    expect(ran).toBe(0);
    expect((await client.as("bob", { scopes: ["reports:read", "reports:write"] }).callTool("write_report")).status).toBe("complete");
    expect(ran).toBe(1);
  });

  it("checks a task's tool scopes on tasks/get over the same path", async () => {
    const writer = client.as("carol", { scopes: ["reports:read", "reports:write"] });
    const created = await writer.callTool("long_report");
    const taskId = (created.response.result as { taskId: string }).taskId;
    const reader = client.as("carol", { scopes: ["reports:read"] });
    const refused = await reader.exchange("tasks/get", { taskId, _meta: reader.meta() });
    expect(refused.http?.status).toBe(403);
    expect(refused.http?.headers["www-authenticate"]).toMatch(
      /^Bearer error="insufficient_scope", .*resource_metadata="[^"]+", scope="reports:read reports:write"$/,
    );
    expect((await writer.request("tasks/get", { taskId })).result).toMatchObject({ taskId });
  });

  it("answers a request without the kit's token on a scoped listener 401", async () => {
    const reader = client.as("dan", { scopes: ["reports:read"] });
    const round = await reader.exchange("tools/list", { _meta: reader.meta() }, { headers: { authorization: "Bearer someone-else" } });
    expect(round.http?.status).toBe(401);
    expect(round.http?.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/);
  });

  it("refuses as(null, { scopes }) and scopes for a server at a URL, saying what to do", async () => {
    expect(() => client.as(null, { scopes: ["reports:read"] })).toThrow(
      "client.as(null, { scopes }): over HTTP a verified token always names a principal; give one (anonymous scopes work in-process, createTestClient)",
    );
    const listener = await client.app.listen();
    const remote = await createHttpTestClient(listener.url, { principalHeaders: (p) => ({ "x-user": p }) });
    try {
      expect(() => remote.as("erin", { scopes: ["reports:read"] })).toThrow(
        "client.as: scopes for a server at a URL need its authorization server: send its token in the headers option (see docs/authorization.md); or give createHttpTestClient the app",
      );
    } finally {
      await remote.close();
      await listener.close();
    }
  });
});
