// Pins that a 2025 session's round keeps its sealed state for as long as the session waits for the
// client's answer (sessions.answerTimeoutMs), whatever the sealer's default lifetime (state.ttl):
// the sealer's clock is injected and moved on while the client answers, so nothing waits.
// - a 2025 user answering an @Elicit question 301 s (past the 300 s state.ttl) and 599 s after it
//   was asked completes the call, declared (@Elicit) and imperative (the method's own sealed
//   state, sealed without a ttl) alike; after more than the wait plus the margin, the state is
//   refused as expired, as before
// - a 2026-07-28 client's requestState still lives state.ttl: its lifetime is not widened
// - a longer sessions.answerTimeoutMs widens the rounds' state with it; one that sealed state
//   cannot outlive (over 840 s) is refused by McpApp.create, naming the option and the fix
import "reflect-metadata";
import { IsString } from "class-validator";
import { inject, injectable } from "tsyringe";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ctx, Elicit, Elicitation, McpApp, Result, StateSealer, Tool, type McpAppOptions, type RequestContext } from "../../src/index";
import { accept, createTestClient } from "../../src/testing/index";

class Name {
  @IsString() name!: string;
}
const RENAME = Elicitation.form("New name?", Name);

@injectable()
class Renamer {
  constructor(@inject(StateSealer) private readonly sealer: StateSealer) {}

  @Tool({ description: "Asks a name (declared)" })
  greet(@Elicit("name", Name, { message: "Your name?" }) answer: Name) {
    return `Hello, ${answer.name}`;
  }

  @Tool({ description: "Asks a name, carrying a checkpoint of its own (imperative)" })
  rename(@Ctx() ctx: RequestContext) {
    const answer = Elicitation.response(ctx, "name", RENAME);
    if (answer.status === "missing") {
      const checkpoint = this.sealer.seal({ step: "asked" }, ctx, { principal: ctx.principal });
      return Result.inputRequired({ inputRequests: { name: RENAME }, requestState: checkpoint });
    }
    const state = this.sealer.open(ctx.requestState, ctx, { principal: ctx.principal }) as { step: string };
    return answer.status === "answered" && answer.action === "accept" ? `Renamed to ${answer.content.name} (${state.step})` : "kept";
  }
}

describe("how long a 2025 session's answer may take", () => {
  let clock = Date.now();
  const apps: McpApp[] = [];
  const clients: Client[] = [];
  const create = (overrides: Partial<McpAppOptions> = {}) => {
    const app = McpApp.create({
      components: [Renamer],
      state: { secret: "answer-time-tests-secret-of-32-bytes-or-more", now: () => clock },
      ...overrides,
    });
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    for (const app of apps.splice(0)) await app.close();
  });

  /** A 2025-11-25 client of `app` over HTTP whose user answers `thinkMs` after being asked (on the sealer's clock). */
  async function legacyClient(app: McpApp, thinkMs: number): Promise<Client> {
    const listener = await app.listen({ port: 0 });
    const client = new Client({ name: "slow-user", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      clock += thinkMs;
      return { action: "accept", content: { name: "Ada" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    clients.push(client);
    return client;
  }

  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

  it.each([
    ["301 s", 301_000],
    ["599 s", 599_000],
  ])("completes a declared and an imperative flow answered %s after the question (state.ttl is 300 s)", async (_label, thinkMs) => {
    const client = await legacyClient(create(), thinkMs);
    expect(text(await client.callTool({ name: "greet", arguments: {} }))).toBe("Hello, Ada");
    expect(text(await client.callTool({ name: "rename", arguments: {} }))).toBe("Renamed to Ada (asked)");
  });

  it("still refuses a round's state once the wait and its margin are over", async () => {
    const client = await legacyClient(create(), 661_000);
    await expect(client.callTool({ name: "greet", arguments: {} })).rejects.toThrow("Invalid or expired request state");
  });

  it("keeps a 2026-07-28 client's requestState to state.ttl", async () => {
    const test = await createTestClient(create(), { capabilities: { elicitation: {} } });
    try {
      const asked = await test.callTool("greet", {});
      expect(asked.keys).toEqual(["name"]);
      clock += 301_000;
      const late = await asked.answer({ name: accept({ name: "Ada" }) });
      expect(late.response.error).toEqual({ code: -32602, message: "Invalid or expired request state" });
    } finally {
      await test.close();
    }
  });

  it("widens the rounds' state with a longer answerTimeoutMs", async () => {
    const client = await legacyClient(create({ sessions: { answerTimeoutMs: 840_000 } }), 839_000);
    expect(text(await client.callTool({ name: "greet", arguments: {} }))).toBe("Hello, Ada");
  });

  it("refuses an answerTimeoutMs that sealed state cannot outlive, naming the fix", () => {
    expect(() => create({ sessions: { answerTimeoutMs: 900_000 } })).toThrow(
      "McpApp.create: sessions.answerTimeoutMs must be at most 840000 ms, got 900000: a 2025 round keeps its sealed state for the wait plus 60 s, and sealed state lives at most 900 s (STATE_TTL_MAX_SECONDS); lower sessions.answerTimeoutMs, or run work that waits longer for its user as a task (a task's question waits its ttlMs)",
    );
  });
});
