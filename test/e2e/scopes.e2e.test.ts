// Pins scopes on components and the testing kit's client.as(principal, { scopes }) in-process,
// without an authorization server (the OAuth wire is pinned by oauth-resource-server.e2e.test.ts):
// - lists show only what the caller's scopes allow (after the hierarchy), cacheScope "private";
//   a connection without authorization sees and runs everything (stdio, in-process)
// - a call without a needed scope is -32003 with data.requiredScopes naming all of them, and the
//   method never runs; the check runs on every round of an @Elicit flow, and for tasks/get,
//   tasks/update and tasks/cancel (the task's tool's scopes)
// - @Scopes on the class and on the method and the scopes option add up; a bad scope is a
//   registration error naming the component
// - completion/complete of a scoped prompt's argument needs the prompt's scopes (-32003 without,
//   the provider never runs), and is unrestricted without authorization
// - the method sees ctx.authorization (scopes as granted, claims); sealed state opened by another
//   principal with the same scopes is refused (-32602)
import { IsString } from "class-validator";
import { Arg, Complete, McpApp, Prompt, Result, Scopes, Tool, Ctx, type RequestContext } from "roundtrip-mcp";
import { accept, createTestClient, type TestClient } from "roundtrip-mcp/testing";
import { tasks } from "../../src/features/tasks/tasks-feature";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import { MemoryLogger } from "../../src/testing/index";

const FORM = { elicitation: { form: {} } };
const TASKS = { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } };

let ran = 0;
@Scopes("reports:read")
class Reports {
  @Tool({ description: "Reads a report" })
  read_report(@Ctx() ctx: RequestContext) {
    ran++;
    return Result.structured({ scopes: ctx.authorization?.scopes ?? null, sub: ctx.authorization?.claims.sub ?? null });
  }

  @Scopes("reports:write")
  @Tool({ description: "Writes a report", scopes: ["audit"] })
  write_report() {
    ran++;
    return Result.text("written");
  }

  @Tool({ description: "Runs as a task", task: "optional", scopes: ["reports:write"] })
  async long_report() {
    return Result.text("done");
  }
}

describe("scopes on components, through the testing kit", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(createPreferencesApp({ logger: new MemoryLogger() }), { capabilities: FORM });
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });

  const names = async (who: TestClient) =>
    ((await who.request("tools/list")).result as { tools: { name: string }[] }).tools.map((t) => t.name);

  it("filters the lists by the caller's scopes, with private cache hints", async () => {
    const reader = client.as("alice", { scopes: ["preferences:read"] });
    expect(await names(reader)).toEqual(["choose_preferences", "preview_theme", "show_theme", "style_options"]);
    expect((await reader.request("tools/list")).result).toMatchObject({ cacheScope: "private" });
    expect(await names(client.as("nobody", { scopes: [] }))).toEqual([]);
    expect(
      ((await client.as("nobody", { scopes: [] }).request("resources/templates/list")).result as { resourceTemplates: [] })
        .resourceTemplates,
    ).toEqual([]);
    expect(((await client.as("nobody", { scopes: [] }).request("prompts/list")).result as { prompts: [] }).prompts).toEqual([]);
  });

  it("applies the hierarchy: preferences implies read and admin", async () => {
    const owner = client.as("carol", { scopes: ["preferences"] });
    expect(await names(owner)).toEqual(["choose_preferences", "preview_theme", "reset_preferences", "show_theme", "style_options"]);
    expect((await owner.callTool("reset_preferences")).status).toBe("input_required");
  });

  it("leaves a connection without authorization unrestricted", async () => {
    expect(await names(client)).toEqual(["choose_preferences", "preview_theme", "reset_preferences", "show_theme", "style_options"]);
    expect(await names(client.as("bob"))).toEqual([
      "choose_preferences",
      "preview_theme",
      "reset_preferences",
      "show_theme",
      "style_options",
    ]);
  });

  it("refuses a call without a needed scope with -32003 naming every scope", async () => {
    const flow = await client.as("alice", { scopes: ["preferences:read"] }).callTool("reset_preferences");
    expect(flow.error).toEqual({
      code: -32003,
      message: "Insufficient scope: this operation needs preferences:admin",
      data: { requiredScopes: ["preferences:admin"] },
    });
  });

  it("checks the scopes on every round of an @Elicit flow", async () => {
    const reader = client.as("alice", { scopes: ["preferences:read"] });
    const round1 = await reader.callTool("choose_preferences");
    expect(round1.status).toBe("input_required");
    const downgraded = await round1.via(client.as("alice", { scopes: ["other"] })).answer({ color: accept({ color: "red" }) });
    expect(downgraded.error.code).toBe(-32003);
    const same = await round1.answer({ color: accept({ color: "red" }) });
    expect(same.status).toBe("input_required");
  });

  it("refuses sealed state opened by another principal holding the same scopes", async () => {
    const round1 = await client.as("alice", { scopes: ["preferences:read"] }).callTool("choose_preferences");
    const stolen = await round1.via(client.as("mallory", { scopes: ["preferences:read"] })).answer({ color: accept({ color: "red" }) });
    expect(stolen.error.code).toBe(-32602);
  });
});

describe("scopes declared on a class, a method and an option", () => {
  let client: TestClient;
  beforeAll(async () => {
    ran = 0;
    const app = McpApp.create({
      components: [Reports],
      state: { ephemeral: true },
      logger: new MemoryLogger(),
      features: [tasks({ store: "memory:" })],
    });
    client = await createTestClient(app, { capabilities: TASKS });
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });

  it("adds class, method and option scopes up, and never runs a refused method", async () => {
    const flow = await client.as("dan", { scopes: ["reports:read", "reports:write"] }).callTool("write_report");
    expect(flow.error.data).toEqual({ requiredScopes: ["reports:read", "reports:write", "audit"] });
    expect(ran).toBe(0);
    const allowed = await client.as("dan", { scopes: ["reports:read", "reports:write", "audit"] }).callTool("write_report");
    expect(allowed.status).toBe("complete");
    expect(ran).toBe(1);
  });

  it("hands the method the verified authorization", async () => {
    const flow = await client.as("erin", { scopes: ["reports:read"] }).callTool("read_report");
    expect(flow.result.structuredContent).toEqual({ scopes: ["reports:read"], sub: "erin" });
  });

  it("checks a task's tool scopes on tasks/get, tasks/update and tasks/cancel", async () => {
    const writer = client.as("fay", { scopes: ["reports:read", "reports:write"] });
    const created = await writer.callTool("long_report");
    const taskId = (created.response.result as { taskId?: string }).taskId;
    expect(typeof taskId).toBe("string");
    const reader = client.as("fay", { scopes: ["reports:read"] });
    for (const [method, params] of [
      ["tasks/get", { taskId }],
      ["tasks/update", { taskId, inputResponses: {} }],
      ["tasks/cancel", { taskId }],
    ] as const) {
      const refused = await reader.request(method, params as never);
      expect([method, refused.error.code]).toEqual([method, -32003]);
    }
    expect((await writer.request("tasks/get", { taskId: taskId! })).status).toBe("complete");
  });

  it("refuses a scope that is not an OAuth scope token at registration", () => {
    class Bad {
      @Tool({ description: "x", scopes: ["has space"] })
      bad() {
        return "x";
      }
    }
    expect(() => McpApp.create({ components: [Bad], state: { ephemeral: true } })).toThrow(
      'Bad.bad: "has space" is not an OAuth scope (printable ASCII, no spaces, quotes or backslashes)',
    );
  });
});

let completed = 0;
class ReviewArgs {
  @IsString()
  @Complete(({ value }) => (completed++, ["python", "typescript"].filter((l) => l.startsWith(value))))
  language!: string;
}

class Reviews {
  @Scopes("reviews:read")
  @Prompt({ name: "review" })
  review(@Arg() args: ReviewArgs) {
    return `Review this ${args.language} code.`;
  }
}

describe("completion of a scoped component", () => {
  let client: TestClient;
  beforeAll(async () => {
    const app = McpApp.create({ components: [Reviews], state: { ephemeral: true }, logger: new MemoryLogger() });
    client = await createTestClient(app);
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });
  const complete = (who: TestClient) =>
    who.request("completion/complete", { ref: { type: "ref/prompt", name: "review" }, argument: { name: "language", value: "py" } });

  it("needs the component's scopes, and the provider does not run without them", async () => {
    completed = 0;
    const refused = await complete(client.as("alice", { scopes: ["other"] }));
    expect(refused.error).toEqual({
      code: -32003,
      message: "Insufficient scope: this operation needs reviews:read",
      data: { requiredScopes: ["reviews:read"] },
    });
    expect(completed).toBe(0);
    const allowed = await complete(client.as("alice", { scopes: ["reviews:read"] }));
    expect(allowed.result).toMatchObject({ completion: { values: ["python"] } });
    expect(completed).toBe(1);
  });

  it("is unrestricted on a connection without authorization", async () => {
    expect((await complete(client)).result).toMatchObject({ completion: { values: ["python"] } });
  });
});
