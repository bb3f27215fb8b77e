/*
 * Pins the rate limits the dispatcher checks before a component runs (in-process, the path every
 * transport shares):
 * - a component's own rateLimit: `limit` calls pass, the next is -32010 with data
 *   { limit, windowMs, retryAfter (whole seconds), retryAfterMs }, and the component did not run;
 * - buckets are per principal: another principal's calls still pass;
 * - per component: another tool of the same principal is not counted;
 * - the app-wide default applies to a component without its own; `rateLimit: false` exempts one;
 *   a resource and a prompt are limited like a tool;
 * - a task-creating call is limited too (the strategy never runs);
 * - the app's per-instance store keeps at most `maxBuckets` buckets (least recently used dropped);
 * - a limit that is not two positive integers is a RegistrationError at McpApp.create naming the
 *   component; an unknown rateLimits option a TypeError;
 * - a shared store that fails or does not answer in storeTimeoutMs does not refuse the call: the
 *   per-instance buckets decide it (fail-open to the per-instance limit), and one warning is
 *   logged until the store answers again (then one info).
 */
import "reflect-metadata";
import { ErrorCode, McpApp, Prompt, RegistrationError, Resource, Tool, tasks, type RateDecision } from "../../../src/index";
import type { RateLimitStore } from "../../../src/stores/index";
import { createTestClient, MemoryLogger, type TestClient } from "../../../src/testing/index";

const runs: string[] = [];

class Limited {
  @Tool({ rateLimit: { limit: 2, windowMs: 60_000 } })
  scarce() {
    runs.push("scarce");
    return "ok";
  }

  @Tool()
  plain() {
    runs.push("plain");
    return "ok";
  }

  @Tool({ rateLimit: false })
  free() {
    return "ok";
  }

  @Resource({ uri: "notes://one", rateLimit: { limit: 1, windowMs: 60_000 } })
  note() {
    return "text";
  }

  @Prompt({ rateLimit: { limit: 1, windowMs: 60_000 } })
  greet() {
    return "hello";
  }

  @Tool({ task: "optional", rateLimit: { limit: 1, windowMs: 60_000 } })
  background() {
    runs.push("background");
    return "done";
  }
}

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

async function call(client: TestClient, name: string, capabilities = {}) {
  return client.raw("tools/call", { name, arguments: {} }, { capabilities });
}

describe("rate limits in the dispatcher", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient([Limited], { app: { rateLimits: { default: { limit: 3, windowMs: 60_000 } }, features: [tasks()] } });
  });
  afterAll(() => client.close());
  beforeEach(() => (runs.length = 0));

  it("refuses the call past a component's limit with -32010 and data, without running it", async () => {
    expect((await call(client, "scarce")).result).toBeDefined();
    expect((await call(client, "scarce")).result).toBeDefined();
    const refused = await call(client, "scarce");
    expect(refused.error).toEqual({
      code: ErrorCode.RateLimited,
      message: 'Rate limit exceeded for tool "scarce": at most 2 calls per 60000 ms per caller; retry after 30 s',
      data: { limit: 2, windowMs: 60_000, retryAfter: 30, retryAfterMs: expect.any(Number) },
    });
    const { retryAfterMs } = refused.error!.data as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(29_000);
    expect(retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(runs).toEqual(["scarce", "scarce"]);
  });

  it("counts per principal and per component", async () => {
    const bob = client.as("bob");
    expect((await call(bob, "scarce")).result).toBeDefined();
    expect((await call(client, "plain")).result).toBeDefined();
  });

  it("applies the app's default to a component without its own, and exempts rateLimit: false", async () => {
    const carol = client.as("carol");
    for (let i = 0; i < 3; i++) expect((await call(carol, "plain")).result).toBeDefined();
    expect((await call(carol, "plain")).error?.code).toBe(ErrorCode.RateLimited);
    for (let i = 0; i < 5; i++) expect((await call(carol, "free")).result).toBeDefined();
  });

  it("limits resources and prompts like tools", async () => {
    const dave = client.as("dave");
    expect((await dave.raw("resources/read", { uri: "notes://one" })).result).toBeDefined();
    expect((await dave.raw("resources/read", { uri: "notes://one" })).error?.code).toBe(ErrorCode.RateLimited);
    expect((await dave.raw("prompts/get", { name: "greet" })).result).toBeDefined();
    expect((await dave.raw("prompts/get", { name: "greet" })).error?.message).toContain('prompt "greet"');
  });

  it("limits a task-creating call before the task is made", async () => {
    const erin = client.as("erin");
    expect((await call(erin, "background", TASKS)).result?.resultType).toBe("task");
    const refused = await call(erin, "background", TASKS);
    expect(refused.error?.code).toBe(ErrorCode.RateLimited);
  });
});

describe("the per-instance buckets", () => {
  it("hold at most rateLimits.maxBuckets: the least recently used caller's bucket is dropped", async () => {
    const client = await createTestClient([Limited], { app: { rateLimits: { maxBuckets: 1 }, features: [tasks()] } });
    try {
      const [alice, bob] = [client.as("alice"), client.as("bob")];
      for (let i = 0; i < 2; i++) expect((await call(alice, "scarce")).result).toBeDefined();
      expect((await call(alice, "scarce")).error?.code).toBe(ErrorCode.RateLimited);
      // bob's bucket takes the one place: alice's is dropped, and starts full again.
      expect((await call(bob, "scarce")).result).toBeDefined();
      expect((await call(alice, "scarce")).result).toBeDefined();
    } finally {
      await client.close();
    }
  });
});

describe("rate limit configuration", () => {
  it.each([{ limit: 0, windowMs: 1 }, { limit: 1 }, { limit: 1.5, windowMs: 10 }, "ten"])("refuses the component limit %p", (limit) => {
    class Bad {
      @Tool({ rateLimit: limit as never })
      t() {
        return "";
      }
    }
    expect(() => McpApp.create({ components: [Bad], state: { ephemeral: true }, logger: new MemoryLogger() })).toThrow(RegistrationError);
    expect(() => McpApp.create({ components: [Bad], state: { ephemeral: true }, logger: new MemoryLogger() })).toThrow("Bad.t: rateLimit");
  });

  it("refuses an unknown rateLimits option and a bad default", () => {
    const create = (rateLimits: object) =>
      McpApp.create({ components: [], state: { ephemeral: true }, logger: new MemoryLogger(), rateLimits: rateLimits as never });
    expect(() => create({ perPrincipal: 3 })).toThrow('unknown rateLimits option "perPrincipal"');
    expect(() => create({ default: { limit: 3, windowMs: -1 } })).toThrow("rateLimits.default: windowMs must be a positive integer");
  });
});

describe("a shared store that fails", () => {
  class One {
    @Tool({ rateLimit: { limit: 1, windowMs: 60_000 } })
    once() {
      return "ok";
    }
  }

  /** A store whose answers the test decides: fail, hang, or the real decision of `answer`. */
  function store(mode: { current: "fail" | "hang" | "answer" }): RateLimitStore {
    return {
      take: (): Promise<RateDecision> =>
        mode.current === "fail"
          ? Promise.reject(new Error("connection refused"))
          : mode.current === "hang"
            ? new Promise<RateDecision>(() => undefined)
            : Promise.resolve({ allowed: true, remaining: 5, retryAfterMs: 0 }),
    };
  }

  it.each(["fail", "hang"] as const)("on %s, limits per instance and warns once until it answers again", async (failure) => {
    const mode = { current: failure as "fail" | "hang" | "answer" };
    const logger = new MemoryLogger();
    const client = await createTestClient([One], { app: { logger, rateLimits: { store: store(mode), storeTimeoutMs: 25 } } });
    try {
      expect((await call(client, "once")).result).toBeDefined();
      expect((await call(client, "once")).error?.code).toBe(ErrorCode.RateLimited);
      expect(logger.entries.filter((e) => e.message.startsWith("rate limit store unreachable"))).toHaveLength(1);
      mode.current = "answer";
      expect((await call(client, "once")).result).toBeDefined();
      expect(logger.entries.filter((e) => e.message.startsWith("rate limit store answers again"))).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
