// Pins the round planner on its own (no dispatcher, no transport):
// - a first round asks every question whose `after` dependencies are resolved, all at once, with
//   sealed state; a dependent question waits for a later round
// - answers of this round resolve (DTO answers transformed and validated); only what is still
//   missing is asked next; the state changes every round (round counter) even with no new answer
// - a carried answer (from the verified token) is built into its DTO without being validated again:
//   the same instance validation built, through the fast path or class-transformer alone
// - a carried answer wins over the same key resent; keys no question has are ignored
// - computed questions and messages see the answers so far and the request context
// - a carried answer pinned to another question (its schema changed, e.g. by a new deployment) is
//   dropped and asked again; the unchanged ones, and a reworded message, keep their answers
// - decline and cancel: "end" ends the plan naming the key; "optional" gives undefined; "outcome"
//   gives the whole outcome; URL consent resolves to { action: "accept" } with no content
// - a URL question carries an elicitationId of its flow's operation id and key: the same on every
//   round of the flow, another for another key or flow; a form question has none
// - every question a round reaches, asked or answered up front (accepted or declined), needs the
//   capability the client declared: an answer to a URL question from a form-only client is -32021
// - an invalid answer is -32602 "Invalid elicitation response" with data { key, reason }
// - its state is sealed with the sealer's internal known-JSON entry (no strict-JSON walk), not `seal`
// - sealed state that is not the planner's own shape is the generic -32602 state refusal
// - re-ask (what `Result.reask(...)` triggers): the named answers and every answer depending on
//   them are dropped and asked again, ignoring this round's answers for them; the others are kept;
//   an unknown key is an internal error
// - through the dispatcher: a method returning `Result.reask(key)` gets that question asked again
import "reflect-metadata";
import { Transform } from "class-transformer";
import { IsIn, IsInt, IsString, Max, Min } from "class-validator";
import * as dtoValidator from "../../../src/schema/dto-validator";
import { container } from "tsyringe";
import { RoundPlanner, type PlannedRound } from "../../../src/dispatch/round-planner";
import type { CarriedState } from "../../../src/dispatch/carried-state";
import { Dispatcher } from "../../../src/dispatch/dispatcher";
import type { RequestContext } from "../../../src/protocol/request-context";
import type { ElicitSpec } from "../../../src/features/component-definition";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import {
  Elicit,
  INVALID_STATE_MESSAGE,
  McpError,
  Result,
  StateSealer,
  Tool,
  type ElicitOptions,
  type ElicitedAnswers,
  type QuestionSource,
} from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

class Seats {
  @IsInt() @Min(1) @Max(9) count!: number;
}

class Colour {
  @IsIn(["red", "blue"]) color!: string;
}

/** Not simple enough for the fast path (a transform): its answers go through the two libraries. */
class Label {
  @Transform(({ value }: { value: unknown }) => (typeof value === "string" ? value.trim() : value)) @IsString() label!: string;
}

const SHADES: Record<string, string[]> = { red: ["crimson", "brick"], blue: ["navy", "sky"] };

const shadeOf = (answers: ElicitedAnswers) => ({
  type: "object" as const,
  properties: { shade: { type: "string" as const, enum: SHADES[(answers.color as Colour).color] } },
  required: ["shade"],
});

function spec(
  key: string,
  source: QuestionSource | ((a: ElicitedAnswers, c: RequestContext) => QuestionSource),
  options: ElicitOptions,
  after: string[] = [],
): ElicitSpec {
  return { key, source, computed: typeof source === "function" && source.prototype === undefined, options, after };
}

const sealer = new StateSealer({ secret: "r".repeat(40) }, new MemoryLogger());
const planner = new RoundPlanner(sealer);

/** One round of `tools/call plan` as the dispatcher would see it. */
function round(
  extra: {
    inputResponses?: Record<string, unknown>;
    requestState?: string;
    principal?: string | null;
    capabilities?: Record<string, unknown>;
  } = {},
): RequestContext {
  return {
    method: "tools/call",
    requestMethod: "tools/call",
    requestParams: { name: "plan", arguments: {} },
    principal: extra.principal ?? null,
    clientCapabilities: extra.capabilities ?? { elicitation: {} },
    protocolVersion: "2026-07-28",
    inputResponses: extra.inputResponses,
    requestState: extra.requestState,
  } as unknown as RequestContext;
}

function asked(plan: PlannedRound): { keys: string[]; requestState: string; messages: Record<string, unknown> } {
  if (plan.kind !== "ask") throw new Error(`expected an ask plan, got ${plan.kind}`);
  const messages = Object.fromEntries(Object.entries(plan.inputRequests).map(([k, r]) => [k, (r.params as { message: string }).message]));
  return { keys: Object.keys(plan.inputRequests), requestState: plan.requestState, messages };
}

function ready(plan: PlannedRound): Extract<PlannedRound, { kind: "ready" }> & { state: CarriedState } {
  if (plan.kind !== "ready") throw new Error(`expected a ready plan, got ${plan.kind}`);
  if (plan.state === undefined) throw new Error("expected the planner's ready round to carry its state");
  return { ...plan, state: plan.state };
}

const accept = (content?: Record<string, unknown>) => ({ action: "accept", ...(content && { content }) });

const SEATS = spec("seats", Seats, { message: "How many seats?" });
const COLOUR = spec("color", Colour, { message: "Pick a colour" });
const SHADE = spec("shade", shadeOf, { message: (a) => `Which ${(a.color as Colour).color}?`, after: ["color"] }, ["color"]);

describe("RoundPlanner.plan", () => {
  it("asks every question that can be asked now, in one round, and holds back dependent ones", async () => {
    const first = asked(await planner.plan([SEATS, COLOUR, SHADE], round()));
    expect(first.keys).toEqual(["seats", "color"]);
    expect(typeof first.requestState).toBe("string");
  });

  it("resolves answers, asks only what is missing, and completes with validated DTO values", async () => {
    const specs = [SEATS, COLOUR, SHADE];
    const second = asked(await planner.plan(specs, round({ inputResponses: { seats: accept({ count: 2 }) } })));
    expect(second.keys).toEqual(["color"]);
    const third = asked(
      await planner.plan(specs, round({ requestState: second.requestState, inputResponses: { color: accept({ color: "blue" }) } })),
    );
    expect(third.keys).toEqual(["shade"]);
    expect(third.messages).toEqual({ shade: "Which blue?" });
    const done = ready(
      await planner.plan(specs, round({ requestState: third.requestState, inputResponses: { shade: accept({ shade: "sky" }) } })),
    );
    expect(done.values.get("seats")).toBeInstanceOf(Seats);
    expect({ ...(done.values.get("seats") as object) }).toEqual({ count: 2 });
    expect(done.values.get("shade")).toEqual({ shade: "sky" });
    expect(done.state.round).toBe(3);
    expect(Object.keys(done.state.answers)).toEqual(["seats", "color", "shade"]);
  });

  it("seals its state through the sealer's internal known-JSON entry, never the public walk", async () => {
    const known = jest.spyOn(sealer, "sealKnownJson");
    const publicSeal = jest.spyOn(sealer, "seal");
    try {
      const first = asked(await planner.plan([SEATS, COLOUR], round({ inputResponses: { seats: accept({ count: 2 }) } })));
      expect(known).toHaveBeenCalledTimes(1);
      expect(publicSeal).not.toHaveBeenCalled();
      // What it sealed opens as the planner's state: the carried answer stays answered.
      expect(asked(await planner.plan([SEATS, COLOUR], round({ requestState: first.requestState }))).keys).toEqual(["color"]);
    } finally {
      known.mockRestore();
      publicSeal.mockRestore();
    }
  });

  it("builds a carried answer's DTO without validating it again: the instance validation built", async () => {
    const LABEL = spec("label", Label, { message: "Label?" });
    const specs = [SEATS, LABEL, COLOUR];
    const validate = jest.spyOn(dtoValidator, "validateDto");
    try {
      const first = asked(
        await planner.plan(specs, round({ inputResponses: { seats: accept({ count: 2 }), label: accept({ label: "  gold " }) } })),
      );
      expect(validate.mock.calls.map(([dto]) => dto)).toEqual([Seats, Label]);
      const firstLabel = (await validate.mock.results[1]!.value) as dtoValidator.DtoValidation<Label>;
      validate.mockClear();
      const done = ready(
        await planner.plan(specs, round({ requestState: first.requestState, inputResponses: { color: accept({ color: "red" }) } })),
      );
      // Only this round's answer is validated; the two carried ones are built.
      expect(validate.mock.calls.map(([dto]) => dto)).toEqual([Colour]);
      expect(done.values.get("seats")).toBeInstanceOf(Seats);
      expect({ ...(done.values.get("seats") as object) }).toEqual({ count: 2 });
      expect(done.values.get("label")).toBeInstanceOf(Label);
      expect(firstLabel.ok && firstLabel.value).toEqual(done.values.get("label"));
      expect({ ...(done.values.get("label") as object) }).toEqual({ label: "gold" });
    } finally {
      validate.mockRestore();
    }
  });

  it("seals a new state every round, even when no answer changed", async () => {
    const first = asked(await planner.plan([SEATS], round()));
    const again = asked(await planner.plan([SEATS], round({ requestState: first.requestState })));
    expect(again.keys).toEqual(["seats"]);
    expect(again.requestState).not.toBe(first.requestState);
  });

  it("keeps a carried answer over the same key resent, and ignores keys no question has", async () => {
    const first = asked(
      await planner.plan([SEATS, COLOUR], round({ inputResponses: { seats: accept({ count: 1 }), stray: accept({ x: 1 }) } })),
    );
    expect(first.keys).toEqual(["color"]);
    const done = ready(
      await planner.plan(
        [SEATS, COLOUR],
        round({ requestState: first.requestState, inputResponses: { seats: accept({ count: 9 }), color: accept({ color: "red" }) } }),
      ),
    );
    expect((done.values.get("seats") as Seats).count).toBe(1);
  });

  it("hands computed questions and messages the answers so far and the request context", async () => {
    const seen: unknown[] = [];
    const computed = spec(
      "shade",
      (answers: ElicitedAnswers, ctx: RequestContext) => {
        seen.push({ answers: { ...answers }, principal: ctx.principal });
        return shadeOf(answers);
      },
      { message: (answers, ctx) => `Which ${(answers.color as Colour).color}, ${String(ctx.principal)}?` },
      ["color"],
    );
    const plan = asked(
      await planner.plan([COLOUR, computed], round({ principal: "ada", inputResponses: { color: accept({ color: "red" }) } })),
    );
    expect(plan.messages).toEqual({ shade: "Which red, ada?" });
    expect(seen).toEqual([{ answers: { color: expect.objectContaining({ color: "red" }) }, principal: "ada" }]);
  });

  it("drops a carried answer whose question changed and asks it again, keeping the unchanged ones", async () => {
    class FewSeats {
      @IsInt() @Min(1) @Max(4) count!: number;
    }
    const first = asked(
      await planner.plan(
        [SEATS, COLOUR, SHADE],
        round({ inputResponses: { seats: accept({ count: 3 }), color: accept({ color: "red" }) } }),
      ),
    );
    expect(first.keys).toEqual(["shade"]);
    // A new deployment changed the seats question: its carried answer no longer fits it.
    const changed = [spec("seats", FewSeats, { message: "How many seats?" }), COLOUR, SHADE];
    const second = asked(await planner.plan(changed, round({ requestState: first.requestState })));
    expect(second.keys).toEqual(["seats", "shade"]);
    const done = ready(
      await planner.plan(
        changed,
        round({ requestState: second.requestState, inputResponses: { seats: accept({ count: 4 }), shade: accept({ shade: "brick" }) } }),
      ),
    );
    expect((done.values.get("seats") as FewSeats).count).toBe(4);
    expect((done.values.get("color") as Colour).color).toBe("red");
  });

  it("keeps a carried answer when only the message or a title changed", async () => {
    const first = asked(await planner.plan([SEATS, COLOUR], round({ inputResponses: { seats: accept({ count: 3 }) } })));
    const reworded = spec("seats", Seats, { message: "Seats, please?" });
    const done = ready(
      await planner.plan(
        [reworded, COLOUR],
        round({ requestState: first.requestState, inputResponses: { color: accept({ color: "blue" }) } }),
      ),
    );
    expect((done.values.get("seats") as Seats).count).toBe(3);
  });

  it.each(["decline", "cancel"] as const)("ends the plan on %s under the default policy", async (action) => {
    expect(await planner.plan([SEATS, COLOUR], round({ inputResponses: { seats: { action } } }))).toEqual({
      kind: "ended",
      key: "seats",
      action,
      round: 1,
    });
  });

  it("gives undefined under onDecline optional and the whole outcome under onDecline outcome", async () => {
    const optional = spec("seats", Seats, { message: "Seats?", onDecline: "optional" });
    const outcome = spec("color", Colour, { message: "Colour?", onDecline: "outcome" });
    const declined = ready(
      await planner.plan([optional, outcome], round({ inputResponses: { seats: { action: "decline" }, color: { action: "cancel" } } })),
    );
    expect(declined.values.has("seats")).toBe(true);
    expect(declined.values.get("seats")).toBeUndefined();
    expect(declined.values.get("color")).toEqual({ action: "cancel" });
    const accepted = ready(await planner.plan([outcome], round({ inputResponses: { color: accept({ color: "red" }) } })));
    expect(accepted.values.get("color")).toEqual({ action: "accept", content: expect.objectContaining({ color: "red" }) });
  });

  it("resolves URL consent to an accept without content, under either policy", async () => {
    const consent = spec("consent", { url: "https://example.com/connect" }, { message: "Connect" });
    const outcome = spec("other", { url: "https://example.com/other" }, { message: "Other", onDecline: "outcome" });
    const urlCapable = { elicitation: { form: {}, url: {} } };
    const done = ready(
      await planner.plan(
        [consent, outcome],
        round({ inputResponses: { consent: { action: "accept" }, other: { action: "accept" } }, capabilities: urlCapable }),
      ),
    );
    expect(done.values.get("consent")).toEqual({ action: "accept" });
    expect(done.values.get("other")).toEqual({ action: "accept" });
  });

  it("gives a URL question an elicitationId of its flow and key: the same on every round of the flow, another in another flow", async () => {
    const consent = spec("consent", { url: "https://example.com/connect" }, { message: "Connect" });
    const other = spec("other", { url: "https://example.com/connect" }, { message: "Connect" });
    const urlCapable = { elicitation: { form: {}, url: {} } };
    const idsOf = (plan: PlannedRound) => {
      if (plan.kind !== "ask") throw new Error(`expected an ask plan, got ${plan.kind}`);
      return Object.fromEntries(
        Object.entries(plan.inputRequests).map(([k, r]) => [k, (r.params as { elicitationId?: string }).elicitationId]),
      );
    };
    const first = await planner.plan([consent, other, SEATS], round({ capabilities: { ...urlCapable } }));
    const ids = idsOf(first);
    expect(ids.consent).toMatch(/^[\w-]{22}$/);
    expect(ids.other).toMatch(/^[\w-]{22}$/);
    expect(ids.other).not.toBe(ids.consent);
    expect(ids.seats).toBeUndefined();
    // The next round of the same flow (its state, the answers still missing) asks with the same ids.
    const again = await planner.plan([consent, other, SEATS], round({ requestState: asked(first).requestState, capabilities: urlCapable }));
    expect(idsOf(again)).toEqual(ids);
    // Another flow: other ids.
    expect(idsOf(await planner.plan([consent, other], round({ capabilities: urlCapable }))).consent).not.toBe(ids.consent);
  });

  it("refuses with -32021 an answer to a question the client could not have been asked, and every question reached", async () => {
    const consent = spec("consent", { url: "https://example.com/connect" }, { message: "Connect" });
    const upFront = await planner
      .plan([consent, SEATS], round({ inputResponses: { consent: { action: "accept" } } }))
      .catch((e: unknown) => e);
    // Which questions reach admission is the planner's; the payload is admission's (admission.test.ts).
    expect([(upFront as McpError).code, (upFront as McpError).data]).toEqual([
      -32021,
      { requiredCapabilities: { elicitation: { url: {} } } },
    ]);
    const declined = await planner.plan([consent], round({ inputResponses: { consent: { action: "decline" } } })).catch((e: unknown) => e);
    expect((declined as McpError).code).toBe(-32021);
    const none = await planner
      .plan([SEATS], round({ inputResponses: { seats: accept({ count: 2 }) }, capabilities: {} }))
      .catch((e: unknown) => e);
    expect((none as McpError).toJSON()).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it("refuses an invalid answer with -32602 naming the key and the rule, without the value", async () => {
    const error = await planner.plan([SEATS], round({ inputResponses: { seats: accept({ count: 12345 }) } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).toJSON()).toEqual({
      code: -32602,
      message: "Invalid elicitation response",
      data: { key: "seats", reason: "content.count: maximum" },
    });
  });

  it("refuses sealed state that is not a planner state with the generic -32602", async () => {
    const foreign = sealer.seal({ step: "other" }, round(), { principal: null });
    const error = await planner.plan([SEATS], round({ requestState: foreign })).catch((e: unknown) => e);
    // The sealer's own refusal (its text: state-sealer-tamper.test.ts), so a foreign state reads as a forged one.
    expect((error as McpError).toJSON()).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
  });
});

describe("RoundPlanner.reask", () => {
  const DETAIL = spec("detail", Seats, { message: "Detail?" }, ["shade"]);
  const specs = [SEATS, COLOUR, SHADE, DETAIL];

  async function resolvedAll() {
    const first = asked(
      await planner.plan(specs, round({ inputResponses: { seats: accept({ count: 2 }), color: accept({ color: "red" }) } })),
    );
    const second = asked(
      await planner.plan(specs, round({ requestState: first.requestState, inputResponses: { shade: accept({ shade: "brick" }) } })),
    );
    return ready(await planner.plan(specs, round({ requestState: second.requestState, inputResponses: { detail: accept({ count: 1 }) } })));
  }

  it("drops the named answers and everything that depends on them, and asks them again", async () => {
    const done = await resolvedAll();
    // The method saw this round's answers and asks the colour again: shade and detail depend on it.
    const ctx = round({ inputResponses: { color: accept({ color: "blue" }) } });
    const again = asked(await planner.reask(specs, ctx, ["color"], done.state));
    expect(again.keys).toEqual(["color"]);
    const next = asked(
      await planner.plan(specs, round({ requestState: again.requestState, inputResponses: { color: accept({ color: "blue" }) } })),
    );
    expect(next.keys).toEqual(["shade"]);
    expect(next.messages).toEqual({ shade: "Which blue?" });
    // detail's question did not change, but it depends on the re-asked colour: it was dropped too.
    const last = asked(
      await planner.plan(specs, round({ requestState: next.requestState, inputResponses: { shade: accept({ shade: "sky" }) } })),
    );
    expect(last.keys).toEqual(["detail"]);
  });

  it("keeps the answers that do not depend on a re-asked one", async () => {
    const done = await resolvedAll();
    const again = asked(await planner.reask(specs, round(), ["detail"], done.state));
    expect(again.keys).toEqual(["detail"]);
    const finished = ready(
      await planner.plan(specs, round({ requestState: again.requestState, inputResponses: { detail: accept({ count: 7 }) } })),
    );
    expect((finished.values.get("seats") as Seats).count).toBe(2);
    expect(finished.values.get("shade")).toEqual({ shade: "brick" });
    expect((finished.values.get("detail") as Seats).count).toBe(7);
  });

  it("treats a key no question has as an internal error", async () => {
    const done = await resolvedAll();
    const error = await planner.reask(specs, round(), ["nope"], done.state).catch((e: unknown) => e);
    expect((error as McpError).toJSON()).toEqual({ code: -32603, message: "Internal error" });
  });
});

describe("Result.reask through the dispatcher", () => {
  const attempts: number[] = [];

  class Booking {
    @Tool()
    book(@Elicit("seats", Seats, { message: "How many seats?" }) seats: Seats) {
      attempts.push(seats.count);
      return seats.count > 4 ? Result.reask("seats") : `booked ${seats.count}`;
    }
  }

  it("is a marker with the keys to ask again, and needs at least one key", () => {
    expect(Result.reask("a", "b").reask).toEqual(["a", "b"]);
    expect(() => Result.reask()).toThrow(TypeError);
  });

  it("asks the question again after the method ran, then completes with the new answer", async () => {
    const child = container.createChildContainer();
    child.registerSingleton(Booking);
    const dispatcher = new Dispatcher({
      features: new FeatureTable(BUILT_IN_FEATURES, { components: [Booking], logger: new MemoryLogger() }),
      container: child,
      sealer,
      logger: new MemoryLogger(),
    });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    const call = (inputResponses: Record<string, unknown>, requestState?: string) =>
      dispatcher.handle({
        method: "tools/call",
        params: { _meta: meta, name: "book", arguments: {}, inputResponses, ...(requestState !== undefined && { requestState }) },
        inputResponses,
        requestState,
        principal: null,
        clientCapabilities: { elicitation: {} },
      });
    const again = await call({ seats: accept({ count: 6 }) });
    expect(again).toMatchObject({
      resultType: "input_required",
      inputRequests: { seats: { params: { message: "How many seats?" } } },
      requestState: expect.any(String),
    });
    const done = await call({ seats: accept({ count: 3 }) }, again.requestState as string);
    expect(done).toEqual({ resultType: "complete", content: [{ type: "text", text: "booked 3" }] });
    expect(attempts).toEqual([6, 3]);
  });
});
