// Pins McpApp.describe() (features/component-description.ts, FeatureTable.describe):
// - each component's kind, name, Class.method, listed descriptor and scopes;
// - its @Elicit questions in the order they are asked, each with the round it is first asked in
//   (one after every question it waits for), its mode (form, url, or computed), a static message
//   (none when computed), the static form or URL, and what a decline does;
// - whether its rounds carry sealed state;
// - what a feature adds (the tasks feature: a task tool's support, ttl, poll interval, retries),
//   under the feature's name; nothing for the components a feature has nothing to say about;
// - the app's name, version and features in order.
import "reflect-metadata";
import { IsIn } from "class-validator";
import { Arg, Elicit, McpApp, OperationId, Prompt, Resource, Scopes, Tool, tasks } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";

class Colour {
  @IsIn(["red", "blue"]) color!: string;
}

@Scopes("paint:read")
class Painter {
  @Tool({ description: "Paints", scopes: ["paint:write"] })
  paint(
    @Elicit("color", Colour, { message: "Which colour?" }) _color: Colour,
    @Elicit("shade", () => ({ type: "object", properties: { shade: { type: "string" } }, required: ["shade"] }), {
      message: (answers) => `Which ${(answers.color as Colour).color} shade?`,
      after: ["color"],
    })
    _shade: unknown,
    @Elicit("consent", { url: "https://example.com/consent" }, { message: "Open it?", onDecline: "outcome" }) _consent: unknown,
    @Elicit("finish", Colour, { message: "Last?", after: ["shade", "consent"], onDecline: "optional" }) _finish: unknown,
  ) {
    return "painted";
  }

  @Tool({ description: "Runs long", task: "optional" })
  long_job(@OperationId() _id: string) {
    return "done";
  }

  @Resource({ uriTemplate: "paint://{id}" })
  swatch(@Arg("id") id: string) {
    return id;
  }

  @Prompt({ description: "Suggests" })
  suggest() {
    return "a colour";
  }
}

describe("McpApp.describe()", () => {
  const app = McpApp.create({
    name: "painter",
    version: "2.0.0",
    components: [Painter],
    state: { ephemeral: true },
    logger: new SilentLogger(),
    features: [tasks({ store: "memory:", ttlMs: 60_000 })],
  });
  afterAll(() => app.close());
  const description = app.describe();
  const component = (name: string) => description.components.find((c) => c.name === name)!;

  it("names the app and its features", () => {
    expect(description).toMatchObject({
      name: "painter",
      version: "2.0.0",
      features: ["tools", "prompts", "resources", "completion", "io.modelcontextprotocol/tasks"],
    });
    expect(description.components.map((c) => [c.kind, c.name, c.implementation])).toEqual([
      ["tool", "paint", "Painter.paint"],
      ["tool", "long_job", "Painter.long_job"],
      ["prompt", "suggest", "Painter.suggest"],
      ["resource", "paint://{id}", "Painter.swatch"],
    ]);
  });

  it("gives each question its round, mode, message and decline policy, in order", () => {
    const paint = component("paint");
    expect(paint.scopes).toEqual(["paint:read", "paint:write"]);
    expect(paint.carriesState).toBe(true);
    expect(paint.questions.map((q) => [q.key, q.round, q.mode, q.message, q.after, q.onDecline])).toEqual([
      ["color", 1, "form", "Which colour?", [], "end"],
      ["shade", 2, "computed", undefined, ["color"], "end"],
      ["consent", 1, "url", "Open it?", [], "outcome"],
      ["finish", 3, "form", "Last?", ["shade", "consent"], "optional"],
    ]);
    expect(paint.questions[0]!.requestedSchema).toMatchObject({ properties: { color: { enum: ["red", "blue"] } } });
    expect(paint.questions[2]!.url).toBe("https://example.com/consent");
    expect(paint.descriptor).toMatchObject({ name: "paint", description: "Paints" });
  });

  it("carries what a feature adds, under its name", () => {
    expect(component("long_job").features).toEqual({
      "io.modelcontextprotocol/tasks": {
        support: "optional",
        ttlMs: 60_000,
        pollIntervalMs: expect.any(Number),
        retryPolicy: "fail",
        maxAttempts: 1,
      },
    });
    expect(component("long_job").carriesState).toBe(true);
    expect(component("paint").features).toEqual({});
    expect(component("suggest")).toMatchObject({ questions: [], carriesState: false, scopes: ["paint:read"] });
  });
});
