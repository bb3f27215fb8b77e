/*
 * Pins how the dispatcher builds a round's RequestContext from what the transport handed over:
 * - an exclusive request (parsed for this request alone): params, clientCapabilities and
 *   inputResponses are frozen in place, the very objects given, nothing copied;
 * - any other request: the caller's objects are left as they were (not frozen, not changed) and
 *   the component sees frozen copies of them;
 * - the round's AbortController is made only when something reads ctx.signal: a handler that never
 *   reads it costs none, on a plain call and on the ready round of an @Elicit flow; a middleware's
 *   `{ ...ctx }` replacement reads it, and the component then gets a working signal;
 * - the ready round of an @Elicit flow hands the component its own requestState (none here), with
 *   every other field of the context as the round had it.
 */
import "reflect-metadata";
import { IsString } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import { Ctx, Elicit, StateSealer, Tool, type JsonObject, type Middleware, type RequestContext } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";
import { countAbortControllers } from "../../support/abort-controllers";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

class Name {
  @IsString() value!: string;
}

let seen: RequestContext | undefined;

class Probe {
  @Tool()
  look(@Ctx() ctx: RequestContext) {
    seen = ctx;
    return "ok";
  }

  @Tool()
  named(@Elicit("name", Name, { message: "Name?" }) name: Name, @Ctx() ctx: RequestContext) {
    seen = ctx;
    return name.value;
  }

  @Tool()
  aborts(@Ctx() ctx: RequestContext) {
    return ctx.signal instanceof AbortSignal ? "has a signal" : "no signal";
  }
}

function dispatcher(middleware: Middleware[] = []): Dispatcher {
  const child = container.createChildContainer();
  child.registerSingleton(Probe);
  return new Dispatcher({
    features: new FeatureTable(BUILT_IN_FEATURES, { components: [Probe], logger: new MemoryLogger() }),
    container: child,
    sealer: new StateSealer({ secret: "r".repeat(40) }, new MemoryLogger()),
    logger: new MemoryLogger(),
    middleware,
  });
}

function request(name: string, extra: Partial<InboundRequest> = {}): InboundRequest {
  const inputResponses = { name: { action: "accept", content: { value: "Ana" } } };
  const params: JsonObject = { _meta: structuredClone(META), name, arguments: {}, inputResponses };
  return {
    method: "tools/call",
    params,
    principal: null,
    clientCapabilities: (params._meta as JsonObject)["io.modelcontextprotocol/clientCapabilities"] as JsonObject,
    inputResponses,
    ...extra,
  };
}

beforeEach(() => (seen = undefined));

describe("the request context", () => {
  it("freezes an exclusive request's own objects in place", async () => {
    const inbound = request("look", { exclusive: true });
    await dispatcher().handle(inbound);
    expect(seen!.requestParams).toBe(inbound.params);
    expect(seen!.clientCapabilities).toBe(inbound.clientCapabilities);
    expect(seen!.inputResponses).toBe(inbound.inputResponses);
    const meta = inbound.params._meta as JsonObject;
    for (const node of [
      inbound.params,
      meta,
      meta["io.modelcontextprotocol/clientCapabilities"],
      inbound.params.arguments,
      inbound.inputResponses,
    ]) {
      expect(Object.isFrozen(node)).toBe(true);
    }
  });

  it("leaves any other request's objects alone and hands the component frozen copies", async () => {
    const inbound = request("look");
    const before = structuredClone({ params: inbound.params, capabilities: inbound.clientCapabilities });
    await dispatcher().handle(inbound);
    expect(seen!.requestParams).not.toBe(inbound.params);
    expect(seen!.requestParams).toEqual(inbound.params);
    expect(seen!.clientCapabilities).not.toBe(inbound.clientCapabilities);
    expect(seen!.inputResponses).not.toBe(inbound.inputResponses);
    expect(
      Object.isFrozen(seen!.requestParams) && Object.isFrozen(seen!.requestParams.arguments) && Object.isFrozen(seen!.inputResponses),
    ).toBe(true);
    for (const node of [
      inbound.params,
      inbound.params._meta,
      inbound.params.arguments,
      inbound.clientCapabilities,
      inbound.inputResponses,
    ]) {
      expect(Object.isFrozen(node)).toBe(false);
    }
    expect({ params: inbound.params, capabilities: inbound.clientCapabilities }).toEqual(before);
  });

  it("makes no AbortController for a handler that never reads ctx.signal", async () => {
    const d = dispatcher();
    expect(await countAbortControllers(() => d.handle(request("look", { exclusive: true })))).toBe(0);
    expect(await countAbortControllers(() => d.handle(request("named", { exclusive: true })))).toBe(0);
    expect(seen!.requestState).toBeUndefined();
    expect(seen!.requestMethod).toBe("tools/call");
    expect(seen!.inputResponses).toEqual({ name: { action: "accept", content: { value: "Ana" } } });
    expect(await countAbortControllers(() => d.handle(request("aborts")))).toBe(1);
  });

  it("gives a working signal through a middleware's spread replacement", async () => {
    const replacing: Middleware = (ctx, next) => next({ ...ctx, principal: "replaced" });
    const result = await dispatcher([replacing]).handle(request("aborts", { exclusive: true }));
    expect(result.content).toEqual([{ type: "text", text: "has a signal" }]);
    await dispatcher([replacing]).handle(request("named", { exclusive: true }));
    expect(seen!.principal).toBe("replaced");
    expect(seen!.signal.aborted).toBe(false);
    expect(Object.isFrozen(seen)).toBe(true);
    const own = new AbortController();
    own.abort("the middleware's own");
    await dispatcher([(ctx, next) => next({ ...ctx, signal: own.signal })]).handle(request("named", { exclusive: true }));
    expect(seen!.signal).toBe(own.signal);
  });
});
