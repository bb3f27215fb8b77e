// Pins how McpApp.create provides the StateSealer through the tsyringe container:
// - one StateSealer (class token) built from the `state` option ({ secret }, { keys },
//   { keysFromEnv }, { ephemeral: true }), the same instance the dispatcher and components get
// - { ephemeral: true } logs one warning that it cannot serve several instances (a debug entry
//   when NODE_ENV is "test", as under jest: an ephemeral key is the normal case in tests)
// - a StateSealer the user registered in the container is used instead (and `state` is then refused)
// - the app registers components in the container given (or a child of the global one), so
//   constructor injection works, and a user registration of a component wins
import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { container, inject, injectable } from "tsyringe";
import { Ctx, McpApp, Result, StateSealer, Tool, type RequestContext } from "../../../src/index";
import { createTestClient, MemoryLogger } from "../../../src/testing/index";

const BINDING = { requestMethod: "tools/call", requestParams: { name: "seal_it", arguments: {} } };

@injectable()
class SealingTool {
  constructor(@inject(StateSealer) readonly sealer: StateSealer) {}
  @Tool()
  seal_it(@Ctx() ctx: RequestContext) {
    return Result.structured({ token: this.sealer.seal({ n: 1 }, ctx, { principal: ctx.principal }) });
  }
}

async function sealedBy(app: McpApp): Promise<string> {
  const client = await createTestClient(app);
  const result = (await client.callTool("seal_it")).result;
  await client.close();
  return (result.structuredContent as { token: string }).token;
}

describe("McpApp and the StateSealer", () => {
  it("registers one sealer from { secret }, shared by the dispatcher and components", async () => {
    const app = McpApp.create({ components: [SealingTool], state: { secret: "c".repeat(40) }, logger: new MemoryLogger() });
    const token = await sealedBy(app);
    expect(app.container.resolve(StateSealer)).toBe(app.sealer);
    expect(app.container.resolve(SealingTool).sealer).toBe(app.sealer);
    expect(app.sealer.open(token, BINDING, { principal: null })).toEqual({ n: 1 });
  });

  it("builds the sealer from a key ring read from the environment", async () => {
    const secret = randomBytes(32).toString("base64");
    process.env.TEST_STATE_KEYS = `k2:${secret},k1:${randomBytes(32).toString("base64")}`;
    try {
      const app = McpApp.create({ components: [SealingTool], state: { keysFromEnv: "TEST_STATE_KEYS" }, logger: new MemoryLogger() });
      expect(app.sealer.keyIds).toEqual(["k2", "k1"]);
      const other = new StateSealer({ keys: [{ id: "k2", secret: Buffer.from(secret, "base64") }] });
      expect(other.open(await sealedBy(app), BINDING, { principal: null })).toEqual({ n: 1 });
    } finally {
      delete process.env.TEST_STATE_KEYS;
    }
  });

  it("warns once that an ephemeral secret cannot serve several instances (at debug level under a test runner)", () => {
    const levelsWith = (nodeEnv: string | undefined) => {
      const saved = process.env.NODE_ENV;
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
      try {
        const logger = new MemoryLogger();
        McpApp.create({ components: [SealingTool], state: { ephemeral: true }, logger });
        const about = logger.entries.filter((e) => /several instances/.test(e.message));
        expect(about).toHaveLength(1);
        return about[0]!.level;
      } finally {
        if (saved === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = saved;
      }
    };
    expect(levelsWith(undefined)).toBe("warn");
    expect(levelsWith("production")).toBe("warn");
    expect(levelsWith("test")).toBe("debug");
  });

  it("uses a sealer the user registered in the container, and refuses a state option beside it", async () => {
    const mine = new StateSealer({ secret: "u".repeat(40) });
    const child = container.createChildContainer();
    child.registerInstance(StateSealer, mine);
    const app = McpApp.create({ components: [SealingTool], container: child, logger: new MemoryLogger() });
    expect(app.sealer).toBe(mine);
    expect(mine.open(await sealedBy(app), BINDING, { principal: null })).toEqual({ n: 1 });
    const again = container.createChildContainer();
    again.registerInstance(StateSealer, mine);
    expect(() => McpApp.create({ components: [SealingTool], container: again, state: { secret: "x".repeat(40) } })).toThrow(
      /already registered/,
    );
  });

  it("keeps apps apart: each default container is a child of the global one", () => {
    const a = McpApp.create({ components: [SealingTool], state: { secret: "a".repeat(40) }, logger: new MemoryLogger() });
    const b = McpApp.create({ components: [SealingTool], state: { secret: "b".repeat(40) }, logger: new MemoryLogger() });
    expect(a.sealer).not.toBe(b.sealer);
    expect(container.isRegistered(StateSealer)).toBe(false);
  });
});
