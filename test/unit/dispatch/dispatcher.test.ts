// Pins the dispatcher on its own (no transport):
// - the request context is framework-owned and frozen: requestMethod, raw requestParams,
//   inputResponses, requestState; component arguments never gain hidden keys
// - middleware order (app-wide, class, method option), a short-circuit, a typed refusal
// - the app-level result validator runs on final results only and can replace them with an error
// - an invalid list cursor is -32602; completion caps values at 100 with total and hasMore
// - a 2025-era request missing a capability gets a message naming it; the era is the one its
//   transport gave (`InboundRequest.era`), for an @Elicit question as for a returned input request:
//   a request without it is 2026-07-28 even with no protocolVersion
import "reflect-metadata";
import { IsString } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import {
  Arg,
  Complete,
  Ctx,
  Elicit,
  McpError,
  Prompt,
  StateSealer,
  Tool,
  UseMiddleware,
  type Middleware,
  type RequestContext,
} from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

class EchoArgs {
  @IsString() text!: string;
}
class Answer {
  @IsString() value!: string;
}
class CompleteArgs {
  @IsString() @Complete(() => Array.from({ length: 150 }, (_, i) => `v${i}`)) many!: string;
}

const order: string[] = [];
const mark =
  (label: string): Middleware =>
  (_ctx, next) => {
    order.push(label);
    return next();
  };

let seen: RequestContext | undefined;
let seenArgs: unknown;

@UseMiddleware(mark("class"))
class Probe {
  @Tool({ middleware: [mark("option")] })
  @UseMiddleware(mark("method"))
  inspect(@Arg() args: EchoArgs, @Ctx() ctx: RequestContext) {
    seen = ctx;
    seenArgs = args;
    return "ok";
  }

  @Tool({ middleware: [() => "short-circuited"] })
  short() {
    return "never";
  }

  @Tool({
    middleware: [
      () => {
        throw new McpError(-33000, "Forbidden", { who: "you" });
      },
    ],
  })
  refused() {
    return "never";
  }

  @Tool()
  asks(@Elicit("answer", Answer, { message: "Answer?" }) answer: Answer) {
    return answer.value;
  }

  @Prompt()
  completing(@Arg() args: CompleteArgs) {
    return args.many;
  }
}

function makeDispatcher(validated: string[] = [], rejectFinal = false): Dispatcher {
  const child = container.createChildContainer();
  child.registerSingleton(Probe);
  return new Dispatcher({
    features: new FeatureTable(BUILT_IN_FEATURES, { components: [Probe], logger: new MemoryLogger() }),
    container: child,
    sealer: new StateSealer({ secret: "d".repeat(40) }, new MemoryLogger()),
    logger: new MemoryLogger(),
    middleware: [mark("app")],
    resultValidator: (result, { component }) => {
      validated.push(`${component.name}:${String(result.resultType)}`);
      if (rejectFinal) throw new McpError(-33002, "Rejected by policy");
    },
  });
}

function call(name: string, extra: Partial<InboundRequest> = {}, params: Record<string, unknown> = {}): InboundRequest {
  return {
    method: "tools/call",
    params: { _meta: META, name, arguments: {}, ...params },
    principal: "p1",
    clientCapabilities: { elicitation: {} },
    ...extra,
  };
}

describe("Dispatcher", () => {
  beforeEach(() => {
    order.length = 0;
    seen = undefined;
  });

  it("hands components a frozen, framework-owned context and exactly the declared arguments", async () => {
    const dispatcher = makeDispatcher();
    const responses = { unrelated: { action: "accept", content: { x: 1 } } };
    const result = await dispatcher.handle(
      call(
        "inspect",
        { inputResponses: responses, requestState: "opaque" },
        { arguments: { text: "hi" }, inputResponses: responses, requestState: "opaque" },
      ),
    );
    expect(result).toEqual({ resultType: "complete", content: [{ type: "text", text: "ok" }] });
    expect(seen!.requestMethod).toBe("tools/call");
    expect(seen!.requestParams).toMatchObject({ name: "inspect", arguments: { text: "hi" }, requestState: "opaque" });
    expect(seen!.inputResponses).toEqual(responses);
    expect(seen!.requestState).toBe("opaque");
    expect(seen!.principal).toBe("p1");
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen!.requestParams)).toBe(true);
    expect(Object.isFrozen((seen!.requestParams as { arguments: object }).arguments)).toBe(true);
    expect(() => ((seen as { principal: string }).principal = "root")).toThrow(TypeError);
    expect({ ...(seenArgs as object) }).toEqual({ text: "hi" });
  });

  it("runs app, class, method and option middleware in that order", async () => {
    await makeDispatcher().handle(call("inspect", {}, { arguments: { text: "x" } }));
    expect(order).toEqual(["app", "class", "method", "option"]);
  });

  it("lets middleware short-circuit or refuse with a typed error", async () => {
    const dispatcher = makeDispatcher();
    expect(await dispatcher.handle(call("short"))).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "short-circuited" }],
    });
    await expect(dispatcher.handle(call("refused"))).rejects.toMatchObject({ code: -33000, message: "Forbidden", data: { who: "you" } });
  });

  it("runs the result validator on final results only", async () => {
    const validated: string[] = [];
    const dispatcher = makeDispatcher(validated);
    const asked = await dispatcher.handle(call("asks"));
    expect(asked.resultType).toBe("input_required");
    expect(validated).toEqual([]);
    await dispatcher.handle(call("asks", { inputResponses: { answer: { action: "accept", content: { value: "v" } } } }));
    expect(validated).toEqual(["asks:complete"]);
    await expect(makeDispatcher([], true).handle(call("short"))).rejects.toMatchObject({ code: -33002, message: "Rejected by policy" });
  });

  it("refuses a list cursor it never issued", async () => {
    await expect(
      makeDispatcher().handle({ method: "tools/list", params: { _meta: META, cursor: "x" }, principal: null, clientCapabilities: {} }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("caps completion values at 100 and reports total and hasMore", async () => {
    const result = await makeDispatcher().handle({
      method: "completion/complete",
      params: { _meta: META, ref: { type: "ref/prompt", name: "completing" }, argument: { name: "many", value: "" } },
      principal: null,
      clientCapabilities: {},
    });
    const completion = result.completion as { values: string[]; total: number; hasMore: boolean };
    expect([completion.values.length, completion.total, completion.hasMore]).toEqual([100, 150, true]);
  });

  it("names the missing capability for a 2025-era request", async () => {
    const error = await makeDispatcher()
      .handle(call("asks", { era: "legacy", clientCapabilities: {} }))
      .catch((e: McpError) => e);
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect((error as McpError).message).toContain("Missing required client capability: elicitation");
  });

  it("takes the era from the transport alone: without era a request is 2026-07-28, whatever its protocolVersion", async () => {
    const error = await makeDispatcher()
      .handle(call("asks", { clientCapabilities: {} }))
      .catch((e: McpError) => e);
    // The 2026-07-28 refusal (its payload: admission.test.ts), not the 2025 one naming what was declared.
    expect((error as McpError).code).toBe(-32021);
    expect((error as McpError).message).not.toContain("initialize");
  });
});
