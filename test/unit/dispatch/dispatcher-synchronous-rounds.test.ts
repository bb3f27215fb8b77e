/*
 * Pins the dispatcher's synchronous rounds (see protocol/maybe-async): a round whose steps are all
 * synchronous (binding accepted by the DTO fast path, a method that returns its value, shaping)
 * makes no promise per step, and nothing else about it changes:
 * - handle() never runs the component inside the caller's own call: the caller's next statement
 *   comes first;
 * - a synchronous method and an asynchronous one give the same result, and so do a synchronous
 *   throw and a rejection (the generic isError result with an error id, the error in the log);
 * - a middleware's next() returns a promise even when the round under it is synchronous, and that
 *   promise rejects when the method throws;
 * - an asynchronous method is still held to timeoutMs;
 * - the cost: through handle(), a plain call of a synchronous method creates at most 8 promises
 *   (22 when every step was an async function), and a whole elicitation round trip (the call
 *   answered input_required, the retry with the answer and the state) at most 16 (52 before).
 */
import "reflect-metadata";
import { createHook } from "node:async_hooks";
import { IsIn, IsInt } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import { Arg, Elicit, StateSealer, Tool, type JsonObject, type Middleware } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

class AddArgs {
  @IsInt() a!: number;
  @IsInt() b!: number;
}

class Confirmation {
  @IsIn(["yes", "no"]) answer!: string;
}

const events: string[] = [];
const nextResults: unknown[] = [];
const watchNext: Middleware = (_ctx, next) => {
  const pending = next();
  nextResults.push(pending);
  return pending;
};

class Calc {
  @Tool()
  add_now(@Arg() args: AddArgs) {
    events.push("component");
    return { sum: args.a + args.b };
  }

  @Tool()
  async add_later(@Arg() args: AddArgs) {
    return { sum: args.a + args.b };
  }

  @Tool()
  throw_now(@Arg() _args: AddArgs): never {
    throw new Error("secret detail now");
  }

  @Tool()
  async throw_later(@Arg() _args: AddArgs): Promise<never> {
    throw new Error("secret detail later");
  }

  @Tool({ middleware: [watchNext] })
  watched_throw(@Arg() _args: AddArgs): never {
    throw new Error("secret detail watched");
  }

  @Tool({ middleware: [watchNext] })
  watched_add(@Arg() args: AddArgs) {
    return args.a + args.b;
  }

  @Tool()
  confirm_add(@Arg() args: AddArgs, @Elicit("confirm", Confirmation, { message: "Add them?" }) confirmation: Confirmation) {
    return { sum: args.a + args.b, confirmed: confirmation.answer };
  }

  @Tool({ timeoutMs: 30 })
  slow(@Arg() _args: AddArgs) {
    return new Promise(() => undefined);
  }
}

const logger = new MemoryLogger();
const child = container.createChildContainer();
child.registerSingleton(Calc);
const dispatcher = new Dispatcher({
  features: new FeatureTable(BUILT_IN_FEATURES, { components: [Calc], logger }),
  container: child,
  sealer: new StateSealer({ secret: "s".repeat(40) }, logger),
  logger,
});

function call(name: string, retry?: { inputResponses: Record<string, unknown>; requestState: string }): Promise<JsonObject> {
  const request: InboundRequest = {
    method: "tools/call",
    params: { _meta: META, name, arguments: { a: 2, b: 3 }, ...retry },
    principal: null,
    clientCapabilities: { elicitation: {} },
    protocolVersion: "2026-07-28",
    exclusive: true,
    ...retry,
  };
  return dispatcher.handle(request);
}

/** Promises created while `run` runs (async_hooks). */
async function promisesDuring(run: () => Promise<unknown>): Promise<number> {
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  }).enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return promises;
}

async function elicitationRoundTrip(): Promise<JsonObject> {
  const asked = await call("confirm_add");
  expect(asked.resultType).toBe("input_required");
  return call("confirm_add", {
    inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } },
    requestState: asked.requestState as string,
  });
}

/** The result without its error id (different per failure). */
const withoutErrorId = (result: JsonObject) =>
  JSON.parse(JSON.stringify(result).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>"));

describe("synchronous rounds", () => {
  it("never run the component inside the caller's call of handle()", async () => {
    events.length = 0;
    const pending = call("add_now");
    events.push("caller");
    await pending;
    expect(events).toEqual(["caller", "component"]);
  });

  it("give a synchronous method's result as an asynchronous one's", async () => {
    const now = await call("add_now");
    expect(now).toEqual({ resultType: "complete", content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    expect(await call("add_later")).toEqual(now);
  });

  it("settle a synchronous throw as a rejection, keeping the detail in the log", async () => {
    const before = logger.entries.length;
    const now = await call("throw_now");
    const later = await call("throw_later");
    expect(now.isError).toBe(true);
    expect(JSON.stringify(now)).not.toContain("secret detail");
    expect(withoutErrorId(now)).toEqual(withoutErrorId(later));
    const logged = JSON.stringify(logger.entries.slice(before));
    expect(logged).toContain("secret detail now");
    expect(logged).toContain("secret detail later");
  });

  it("hand a middleware's next() a promise, which rejects when the method throws", async () => {
    nextResults.length = 0;
    expect((await call("watched_add")).content).toEqual([{ type: "text", text: "5" }]);
    expect((await call("watched_throw")).isError).toBe(true);
    expect(nextResults).toHaveLength(2);
    expect(nextResults[0]).toBeInstanceOf(Promise);
    expect(nextResults[1]).toBeInstanceOf(Promise);
    await expect(nextResults[1]).rejects.toThrow("secret detail watched");
  });

  it("still hold an asynchronous method to its timeoutMs", async () => {
    await expect(call("slow")).rejects.toMatchObject({ code: -32603, message: "Request timed out", data: { timeoutMs: 30 } });
  });

  it("create at most 8 promises for a plain call of a synchronous method", async () => {
    for (let i = 0; i < 5; i++) await call("add_now");
    const promises = await promisesDuring(() => call("add_now"));
    expect(promises).toBeGreaterThan(0);
    expect(promises).toBeLessThanOrEqual(8);
  });

  it("create at most 16 promises for a whole elicitation round trip", async () => {
    expect((await elicitationRoundTrip()).structuredContent).toEqual({ sum: 5, confirmed: "yes" });
    const promises = await promisesDuring(elicitationRoundTrip);
    expect(promises).toBeGreaterThan(0);
    expect(promises).toBeLessThanOrEqual(16);
  });
});
