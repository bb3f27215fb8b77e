// Pins the codec of the state a carried flow seals between rounds (dispatch/carried-state.ts):
// - a state is written with the letters of every earlier release, in their order: {r, a: {key:
//   {d, o}}, o, m}, `m` only when the method kept state of its own; so token bytes do not change
// - what is written reads back to the same named state
// - anything that is not such a state (not an object, r not a number, a not an object, o not a
//   string, m not a string) reads as no state; an answer that is not {d: string, o: object} is
//   left out (its question is asked again) while the others are kept
// - through the planner: the requestState of a round holds exactly those letters, and a state an
//   older release sealed by hand in them opens and carries its answers, round and operation id
import "reflect-metadata";
import { IsIn, IsInt, Max, Min } from "class-validator";
import { decodeCarriedState, encodeCarriedState, type CarriedState } from "../../../src/dispatch/carried-state";
import { RoundPlanner } from "../../../src/dispatch/round-planner";
import type { ElicitSpec } from "../../../src/features/component-definition";
import type { RequestContext } from "../../../src/protocol/request-context";
import { StateSealer, type ElicitOptions } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

class Seats {
  @IsInt() @Min(1) @Max(9) count!: number;
}
class Colour {
  @IsIn(["red", "blue"]) color!: string;
}

const spec = (key: string, source: ElicitSpec["source"], options: ElicitOptions): ElicitSpec => ({
  key,
  source,
  computed: false,
  options,
  after: [],
});
const SEATS = spec("seats", Seats, { message: "How many seats?" });
const COLOUR = spec("color", Colour, { message: "Pick a colour" });

const sealer = new StateSealer({ secret: "c".repeat(40) }, new MemoryLogger());
const planner = new RoundPlanner(sealer);

function round(extra: { inputResponses?: Record<string, unknown>; requestState?: string } = {}): RequestContext {
  return {
    requestMethod: "tools/call",
    requestParams: { name: "plan", arguments: {} },
    principal: null,
    clientCapabilities: { elicitation: {} },
    protocolVersion: "2026-07-28",
    inputResponses: extra.inputResponses,
    requestState: extra.requestState,
  } as unknown as RequestContext;
}

const STATE: CarriedState = {
  round: 2,
  answers: {
    seats: { digest: "d-seats", outcome: { action: "accept", content: { count: 2 } } },
    color: { digest: "d-color", outcome: { action: "decline" } },
  },
  operationId: "op-1",
  methodState: "own",
};

describe("the carried state's codec", () => {
  it("writes the letters of earlier releases, in their order", () => {
    expect(JSON.stringify(encodeCarriedState(STATE))).toBe(
      '{"r":2,"a":{"seats":{"d":"d-seats","o":{"action":"accept","content":{"count":2}}},"color":{"d":"d-color","o":{"action":"decline"}}},"o":"op-1","m":"own"}',
    );
    const { methodState: _left, ...withoutOwn } = STATE;
    expect(JSON.stringify(encodeCarriedState(withoutOwn))).toBe(
      '{"r":2,"a":{"seats":{"d":"d-seats","o":{"action":"accept","content":{"count":2}}},"color":{"d":"d-color","o":{"action":"decline"}}},"o":"op-1"}',
    );
  });

  it("reads back what it wrote", () => {
    expect(decodeCarriedState(JSON.parse(JSON.stringify(encodeCarriedState(STATE))))).toEqual(STATE);
  });

  it.each([
    ["a string", "state"],
    ["null", null],
    ["r not a number", { r: "1", a: {}, o: "op" }],
    ["a missing", { r: 1, o: "op" }],
    ["a null", { r: 1, a: null, o: "op" }],
    ["o not a string", { r: 1, a: {}, o: 7 }],
    ["m not a string", { r: 1, a: {}, o: "op", m: 3 }],
  ])("reads %s as no state", (_what, data) => {
    expect(decodeCarriedState(data)).toBeUndefined();
  });

  it("leaves out an answer that is not {d, o}, keeping the others", () => {
    const data = { r: 1, a: { good: { d: "x", o: { action: "cancel" } }, bad: 5, noDigest: { o: {} }, noOutcome: { d: "y" } }, o: "op" };
    expect(decodeCarriedState(data)).toEqual({
      round: 1,
      answers: { good: { digest: "x", outcome: { action: "cancel" } } },
      operationId: "op",
    });
  });
});

describe("the carried state through the planner", () => {
  it("seals exactly the letters, and opens a state an older release sealed in them", async () => {
    const first = await planner.plan([SEATS, COLOUR], round({ inputResponses: { seats: { action: "accept", content: { count: 2 } } } }));
    if (first.kind !== "ask") throw new Error(`expected an ask round, got ${first.kind}`);
    const sealed = sealer.open(first.requestState, round(), { principal: null }) as {
      r: number;
      a: { seats: { d: string } };
      o: string;
    };
    expect(Object.keys(sealed)).toEqual(["r", "a", "o"]);
    expect(sealed).toEqual({
      r: 1,
      a: { seats: { d: expect.any(String), o: { action: "accept", content: { count: 2 } } } },
      o: expect.any(String),
    });

    // What a running older instance sealed: the same letters, written by hand.
    const older = sealer.seal(
      { r: 7, a: { seats: { d: sealed.a.seats.d, o: { action: "accept", content: { count: 3 } } } }, o: "op-older" },
      round(),
      { principal: null },
    );
    const next = await planner.plan(
      [SEATS, COLOUR],
      round({ requestState: older, inputResponses: { color: { action: "accept", content: { color: "red" } } } }),
    );
    if (next.kind !== "ready") throw new Error(`expected a ready round, got ${next.kind}`);
    expect([...next.values.entries()]).toEqual([
      ["seats", { count: 3 }],
      ["color", { color: "red" }],
    ]);
    expect(next.state).toMatchObject({ round: 8, operationId: "op-older" });
  });
});
