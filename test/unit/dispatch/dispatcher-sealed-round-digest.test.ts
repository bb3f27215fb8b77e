/*
 * Pins that a carried round digests its binding once: a round that opens the state it was sent
 * and seals the next one (the dispatcher's params, frozen in place) computes the binding digest
 * (canonical JSON of the method and salient params, then SHA-256) once, not once per open and
 * once per seal; a first round (seal only) once too, and a last one (open only) once when the
 * retry reaches another instance, none when it comes back to the one that sealed (its recent
 * seals compare the binding's text). The flow still completes with every answer.
 */
import "reflect-metadata";
import nodeCrypto = require("node:crypto");
import { IsIn } from "class-validator";
import { container } from "tsyringe";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import { Arg, Elicit, StateSealer, Tool, type JsonObject } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

class TripArgs {
  @IsIn(["Lyon", "Oslo"]) city!: string;
}
class Answer {
  @IsIn(["yes", "no"]) answer!: string;
}

class Trips {
  @Tool()
  book(
    @Arg() args: TripArgs,
    @Elicit("first", Answer, { message: "Breakfast?" }) first: Answer,
    @Elicit("second", Answer, { message: "Late checkout?" }) second: Answer,
  ) {
    return { booked: `${args.city} ${first.answer} ${second.answer}` };
  }
}

const logger = new MemoryLogger();
const child = container.createChildContainer();
child.registerSingleton(Trips);
/** One instance of the app; two of them share the secret, as the instances of one deployment do. */
const instance = () =>
  new Dispatcher({
    features: new FeatureTable(BUILT_IN_FEATURES, { components: [Trips], logger }),
    container: child,
    sealer: new StateSealer({ secret: "d".repeat(40) }, logger),
    logger,
  });
const instances = [instance(), instance()];

function call(retry?: { inputResponses: Record<string, unknown>; requestState: string }, dispatcher = instances[0]!): Promise<JsonObject> {
  const request: InboundRequest = {
    method: "tools/call",
    params: { _meta: META, name: "book", arguments: { city: "Lyon" }, ...retry },
    principal: "alice",
    clientCapabilities: { elicitation: {} },
    protocolVersion: "2026-07-28",
    exclusive: true,
    ...retry,
  };
  return dispatcher.handle(request);
}

/** The binding digests (SHA-256 of the labelled canonical binding) computed while `run` runs. */
async function digestsDuring(run: () => Promise<JsonObject>): Promise<{ result: JsonObject; digests: number }> {
  const hash = jest.spyOn(nodeCrypto, "hash");
  try {
    const result = await run();
    const digests = hash.mock.calls.filter(
      ([, input]) => typeof input === "string" && input.startsWith("roundtrip-mcp/state/binding/"),
    ).length;
    return { result, digests };
  } finally {
    hash.mockRestore();
  }
}

const accept = (answer: string) => ({ action: "accept", content: { answer } });

describe("a carried round's binding digest", () => {
  it.each([
    ["comes back to the instance that sealed", 0, 0],
    ["alternates between two instances", 1, 1],
  ])("is computed once per round, for the open and the seal together, when the flow %s", async (_label, other, lastDigests) => {
    const first = await digestsDuring(() => call());
    expect(first.result.resultType).toBe("input_required");
    expect(Object.keys(first.result.inputRequests as object).sort()).toEqual(["first", "second"]);
    expect(first.digests).toBe(1);

    const second = await digestsDuring(() =>
      call({ inputResponses: { first: accept("yes") }, requestState: first.result.requestState as string }, instances[other]),
    );
    expect(second.result.resultType).toBe("input_required");
    expect(Object.keys(second.result.inputRequests as object)).toEqual(["second"]);
    expect(second.digests).toBe(1);

    const last = await digestsDuring(() =>
      call({ inputResponses: { second: accept("no") }, requestState: second.result.requestState as string }),
    );
    expect(last.result).toMatchObject({ structuredContent: { booked: "Lyon yes no" } });
    expect(last.digests).toBe(lastDigests);
  });
});
