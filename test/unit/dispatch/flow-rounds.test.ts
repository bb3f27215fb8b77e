// Pins carried flows through the dispatcher (no transport): components with @Elicit or
// @OperationId parameters, whose rounds the framework carries in sealed state.
// - @Elicit composes with the method's own input requests: an @Elicit + sampling method completes
//   in exactly three rounds; the round the method ends carries the elicited answers (sealed with
//   what it asked), so the next round re-enters it with its parameters intact and it reads its own
//   answer with Sampling.response; the @Elicit question is not asked again
// - the method's own requestState comes back unchanged as ctx.requestState on the next round;
//   without one, and on the first entry, ctx.requestState is undefined (never the framework's token);
//   a state-only continuation from an @Elicit method is carried too
// - admission still applies to what the method asks (no sampling capability: -32021)
// - contract violations are -32603 "Internal error" with the reason (naming both keys for a
//   collision) in the logger: a method key that is also an @Elicit key, a non-string requestState,
//   input_required with nothing in it, Result.reask() of an unknown key or without @Elicit parameters
// - @OperationId: 128 random bits as base64url, the same on every round of one flow, different
//   for two flows with the same arguments, given to a flow that completes in one round, and carried
//   through a hand-written multi-round flow without @Elicit parameters; it must be typed string;
//   a restored invocation (a task run again after its worker died) keeps the recorded id
import "reflect-metadata";
import { IsIn, IsString } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import {
  Ctx,
  Elicit,
  McpApp,
  OperationId,
  RegistrationError,
  Result,
  Sampling,
  StateSealer,
  Tool,
  type ClientCapabilities,
  type JsonObject,
  type RequestContext,
} from "../../../src/index";
import { MemoryLogger, SilentLogger } from "../../../src/testing/index";

class Destination {
  @IsIn(["Oslo", "Lima"]) city!: string;
}

class Note {
  @IsString() text!: string;
}

const summaryQuestion = (city: string) =>
  Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: `Summarise ${city}` } }], maxTokens: 50 });

/** What each method saw, per call, for the assertions. */
const seen: { city?: string; requestState?: string; operationId?: string }[] = [];

class Planner {
  @Tool()
  brief(
    @Elicit("destination", Destination, { message: "Where to?" }) destination: Destination,
    @Ctx() ctx: RequestContext,
    @OperationId() operationId: string,
  ) {
    seen.push({ city: destination.city, requestState: ctx.requestState, operationId });
    const question = summaryQuestion(destination.city);
    const summary = Sampling.response(ctx, "summary", question);
    if (summary.status === "missing") return Result.inputRequired({ inputRequests: { summary: question } });
    if (summary.status !== "answered") throw new Error("unreachable");
    return `${destination.city}: ${(summary.result.content as { text?: string }).text}`;
  }

  @Tool()
  checkpoint(@Elicit("note", Note, { message: "Note?" }) note: Note, @Ctx() ctx: RequestContext) {
    seen.push({ requestState: ctx.requestState });
    if (ctx.requestState === undefined) return Result.inputRequired({ requestState: `own-${note.text}` });
    if (ctx.requestState === `own-${note.text}`)
      return Result.inputRequired({ inputRequests: { again: summaryQuestion(note.text) }, requestState: "own-second" });
    return `${note.text} after ${ctx.requestState}`;
  }

  @Tool()
  clash(@Elicit("note", Note, { message: "Note?" }) note: Note) {
    return Result.inputRequired({ inputRequests: { note: summaryQuestion(note.text) } });
  }

  @Tool()
  bad_state(@Elicit("note", Note, { message: "Note?" }) note: Note) {
    return { resultType: "input_required", inputRequests: { more: summaryQuestion(note.text) }, requestState: 42 };
  }

  @Tool()
  empty(@Elicit("note", Note, { message: "Note?" }) note: Note) {
    void note;
    return { resultType: "input_required" };
  }

  @Tool()
  reask_unknown(@Elicit("note", Note, { message: "Note?" }) note: Note) {
    void note;
    return Result.reask("nope");
  }

  @Tool()
  reask_without_elicit() {
    return Result.reask("note");
  }

  @Tool()
  one_round(@OperationId() operationId: string) {
    return operationId;
  }

  @Tool()
  handwritten(@Ctx() ctx: RequestContext, @OperationId() operationId: string) {
    seen.push({ requestState: ctx.requestState, operationId });
    const question = summaryQuestion("Rome");
    const summary = Sampling.response(ctx, "summary", question);
    if (summary.status === "missing") return Result.inputRequired({ inputRequests: { summary: question } });
    return operationId;
  }
}

const CAPS: ClientCapabilities = { elicitation: {}, sampling: {} };
const logger = new MemoryLogger();
const sealer = new StateSealer({ secret: "c".repeat(40) }, new MemoryLogger());
const child = container.createChildContainer();
child.registerSingleton(Planner);
const dispatcher = new Dispatcher({
  features: new FeatureTable(BUILT_IN_FEATURES, { components: [Planner], logger }),
  container: child,
  sealer,
  logger,
});

interface Round {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  capabilities?: ClientCapabilities;
}

function call(tool: string, round: Round = {}): Promise<JsonObject> {
  const { inputResponses, requestState, capabilities = CAPS } = round;
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": capabilities };
  const request: InboundRequest = {
    method: "tools/call",
    params: {
      _meta: meta,
      name: tool,
      arguments: {},
      ...(inputResponses && { inputResponses }),
      ...(requestState !== undefined && { requestState }),
    },
    inputResponses,
    requestState,
    principal: null,
    clientCapabilities: capabilities,
  };
  return dispatcher.handle(request);
}

const accept = (content: Record<string, unknown>) => ({ action: "accept", content });
const reply = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "m" });
const keys = (result: JsonObject) => Object.keys((result.inputRequests ?? {}) as object);

async function refusedWith(result: Promise<JsonObject>, problem: string): Promise<void> {
  const before = logger.entries.length;
  await expect(result).rejects.toMatchObject({ code: -32603, message: "Internal error" });
  const logged = logger.entries.slice(before).find((e) => e.message === "component broke the flow contract");
  expect(logged?.fields?.problem).toContain(problem);
}

beforeEach(() => {
  seen.length = 0;
});

describe("@Elicit with the method's own input requests", () => {
  it("completes in three rounds, re-entering the method with its elicited parameter intact", async () => {
    const r1 = await call("brief");
    expect(keys(r1)).toEqual(["destination"]);
    const r2 = await call("brief", { requestState: r1.requestState as string, inputResponses: { destination: accept({ city: "Oslo" }) } });
    expect(r2).toMatchObject({
      resultType: "input_required",
      inputRequests: { summary: summaryQuestion("Oslo") },
      requestState: expect.any(String),
    });
    expect(keys(r2)).toEqual(["summary"]);
    const r3 = await call("brief", { requestState: r2.requestState as string, inputResponses: { summary: reply("fjords") } });
    expect(r3).toEqual({ resultType: "complete", content: [{ type: "text", text: "Oslo: fjords" }] });
    expect(seen.map((s) => s.city)).toEqual(["Oslo", "Oslo"]);
    // The method never sees the framework's token, and had no state of its own.
    expect(seen.map((s) => s.requestState)).toEqual([undefined, undefined]);
  });

  it("hands the method's own requestState back unchanged, through a state-only round and an asking one", async () => {
    const r1 = await call("checkpoint", { inputResponses: { note: accept({ text: "n" }) } });
    expect(r1).toEqual({ resultType: "input_required", requestState: expect.any(String) });
    expect(r1.requestState).not.toContain("own-");
    const r2 = await call("checkpoint", { requestState: r1.requestState as string });
    expect(keys(r2)).toEqual(["again"]);
    const r3 = await call("checkpoint", { requestState: r2.requestState as string, inputResponses: { again: reply("x") } });
    expect(r3).toEqual({ resultType: "complete", content: [{ type: "text", text: "n after own-second" }] });
    expect(seen.map((s) => s.requestState)).toEqual([undefined, "own-n", "own-second"]);
  });

  it("admits what the method asks against this round's capabilities", async () => {
    const asked = call("brief", { inputResponses: { destination: accept({ city: "Lima" }) }, capabilities: { elicitation: {} } });
    await expect(asked).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });
});

describe("contract violations", () => {
  const note = { inputResponses: { note: accept({ text: "n" }) } };

  it("refuses a method input request under an @Elicit key, naming both", async () => {
    await refusedWith(call("clash", note), 'Planner.clash: its input request key "note" is also the key of @Elicit("note")');
  });

  it("refuses a requestState that is not a string, and input_required with nothing in it", async () => {
    await refusedWith(call("bad_state", note), "Planner.bad_state: returned input_required with a requestState that is not a string");
    await refusedWith(call("empty", note), "Planner.empty: returned input_required with neither inputRequests nor requestState");
  });

  it("refuses Result.reask() of an unknown key, and from a method without @Elicit parameters", async () => {
    await refusedWith(call("reask_unknown", note), 'Planner.reask_unknown: Result.reask() names "nope", which is not an @Elicit key');
    await refusedWith(call("reask_without_elicit"), "Planner.reask_without_elicit: returned Result.reask() but has no @Elicit parameters");
  });
});

describe("@OperationId", () => {
  const ID = /^[A-Za-z0-9_-]{22}$/;

  it("is the same on every round of one flow and differs between two flows with the same arguments", async () => {
    const flow = async () => {
      const r1 = await call("brief", { inputResponses: { destination: accept({ city: "Oslo" }) } });
      await call("brief", { requestState: r1.requestState as string, inputResponses: { summary: reply("fjords") } });
    };
    await flow();
    await flow();
    const [a1, a2, b1, b2] = seen.map((s) => s.operationId!);
    expect(a1).toMatch(ID);
    expect(a2).toBe(a1);
    expect(b2).toBe(b1);
    expect(b1).not.toBe(a1);
  });

  it("is given to a call that completes in one round, fresh each time", async () => {
    const first = (await call("one_round")).content as { text: string }[];
    const second = (await call("one_round")).content as { text: string }[];
    expect(first[0]!.text).toMatch(ID);
    expect(second[0]!.text).not.toBe(first[0]!.text);
  });

  it("is carried through a hand-written flow without @Elicit parameters", async () => {
    const r1 = await call("handwritten");
    expect(r1).toMatchObject({ inputRequests: { summary: summaryQuestion("Rome") }, requestState: expect.any(String) });
    const r2 = await call("handwritten", { requestState: r1.requestState as string, inputResponses: { summary: reply("ruins") } });
    expect(r2.content).toEqual([{ type: "text", text: seen[0]!.operationId }]);
    expect(seen.map((s) => s.requestState)).toEqual([undefined, undefined]);
    expect(seen[1]!.operationId).toBe(seen[0]!.operationId);
  });

  it("is kept when a recorded invocation is restored (a task run again)", async () => {
    const component = dispatcher.features.components.find((c) => c.ref.name === "brief")!;
    const ctx = {
      requestMethod: "tools/call",
      requestParams: { name: "brief", arguments: {} },
      principal: null,
      clientCapabilities: CAPS,
    } as unknown as RequestContext;
    const recorded = {
      arguments: {},
      answers: { destination: { action: "accept" as const, content: { city: "Lima" } } },
      operationId: "A".repeat(22),
    };
    const invocation = await dispatcher.restore(component, recorded, ctx);
    const summary = { ...ctx, inputResponses: { summary: reply("andes") } } as RequestContext;
    expect(await invocation.run(summary)).toBe("Lima: andes");
    expect(seen).toEqual([{ city: "Lima", requestState: undefined, operationId: "A".repeat(22) }]);
  });

  it("must be typed string", () => {
    class Typed {
      @Tool() run(@OperationId() id: number) {
        return String(id);
      }
    }
    expect(() => McpApp.create({ components: [Typed], state: { secret: "t".repeat(40) }, logger: new SilentLogger() })).toThrow(
      RegistrationError,
    );
    expect(() => McpApp.create({ components: [Typed], state: { secret: "t".repeat(40) }, logger: new SilentLogger() })).toThrow(
      "Typed.run: @OperationId() parameter 0 is a string (found Number)",
    );
  });
});
