/*
 * Pins how @Elicit questions are prepared at bootstrap:
 * - a static question with a static message is built and digested once, when the app is built:
 *   every round asks with that very request object (a URL question: plus its flow's
 *   elicitationId), and pins answers with that digest;
 * - a static question with a computed message is built every round (its message reads the
 *   answers), but its digest is computed once, and equals the digest of the question as built in
 *   any round (the message is not part of a digest);
 * - a computed question is built and digested every round (nothing prepared).
 */
import "reflect-metadata";
import { IsString } from "class-validator";
import { RoundPlanner } from "../../../src/dispatch/round-planner";
import { questionDigest } from "../../../src/elicitation/question-digest";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import { buildQuestion } from "../../../src/features/question-builder";
import type { RequestContext } from "../../../src/protocol/request-context";
import { Elicit, StateSealer, Tool, type ElicitedAnswers } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";

class City {
  @IsString() name!: string;
}

class Trips {
  @Tool()
  book(
    @Elicit("city", City, { message: "Which city?" }) city: City,
    @Elicit(
      "when",
      { type: "object", properties: { day: { type: "string" } }, required: ["day"] },
      { message: (a: ElicitedAnswers) => `When in ${(a.city as City).name}?`, after: ["city"] },
    )
    when: unknown,
    @Elicit("site", { url: "https://example.com/connect" }, { message: "Connect" }) site: unknown,
    @Elicit("note", () => ({ type: "object" as const, properties: { text: { type: "string" as const } } }), { message: "A note?" })
    note: unknown,
  ) {
    return JSON.stringify({ city, when, site, note });
  }
}

const table = new FeatureTable(BUILT_IN_FEATURES, { components: [Trips], logger: new MemoryLogger() });
const specs = table.components[0]!.elicits;
const byKey = (key: string) => specs.find((s) => s.key === key)!;
const ctx = {
  requestMethod: "tools/call",
  requestParams: { name: "book", arguments: {} },
  principal: null,
  clientCapabilities: { elicitation: { form: {}, url: {} } },
  protocolVersion: "2026-07-28",
  inputResponses: undefined,
  requestState: undefined,
} as unknown as RequestContext;

describe("static @Elicit questions", () => {
  it("builds and digests a question with a static message once, and asks with that very request", async () => {
    for (const key of ["city", "site"]) {
      const spec = byKey(key);
      expect(spec.built).toBeDefined();
      expect(spec.digest).toBe(questionDigest(key, spec.built!.request));
    }
    const planner = new RoundPlanner(new StateSealer({ secret: "q".repeat(40) }, new MemoryLogger()));
    const ids = new Set<string>();
    for (let flow = 0; flow < 2; flow++) {
      const plan = await planner.plan(specs, ctx);
      if (plan.kind !== "ask") throw new Error(`expected an ask, got ${plan.kind}`);
      expect(plan.inputRequests.city).toBe(byKey("city").built!.request);
      // A URL question is the built one plus the id of its flow (a new flow each time here).
      const site = byKey("site").built!.request;
      expect(plan.inputRequests.site).toEqual({ ...site, params: { ...site.params, elicitationId: expect.stringMatching(/^[\w-]{22}$/) } });
      ids.add((plan.inputRequests.site!.params as { elicitationId: string }).elicitationId);
    }
    expect(ids.size).toBe(2);
  });

  it("digests a question with a computed message once, as any round would", () => {
    const spec = byKey("when");
    expect(spec.built).toBeUndefined();
    for (const name of ["Oslo", "Lima"]) {
      const question = buildQuestion(spec, { city: Object.assign(new City(), { name }) }, ctx);
      expect((question.request.params as { message: string }).message).toBe(`When in ${name}?`);
      expect(questionDigest("when", question.request)).toBe(spec.digest);
    }
  });

  it("prepares nothing for a computed question", () => {
    expect(byKey("note").computed).toBe(true);
    expect(byKey("note").built).toBeUndefined();
    expect(byKey("note").digest).toBeUndefined();
  });
});
