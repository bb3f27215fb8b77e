// Pins which server capabilities an app advertises from what it registered (capabilitiesFor):
// - tools / prompts / resources each with listChanged, only when some are registered;
// - completions when there is a prompt or a resource template; logging always;
// - resources.subscribe for 2026-07-28 traffic only (resourceSubscriptions on subscriptions/listen),
//   never for the 2025 era, where it would promise the unimplemented resources/subscribe.
import "reflect-metadata";
import { Arg, Prompt, Resource, Tool } from "../../../src/index";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import { FeatureTable } from "../../../src/features/feature-table";
import { SilentLogger } from "../../../src/testing/index";
import { capabilitiesFor } from "../../../src/server/sdk-bridge";

class Everything {
  @Tool({ description: "t" }) t() {
    return "t";
  }
  @Prompt({ description: "p" }) p() {
    return "p";
  }
  @Resource({ uri: "test://r", name: "r" }) r() {
    return "r";
  }
}

class OnlyTemplate {
  @Resource({ uriTemplate: "test://{id}", name: "tpl" }) tpl(@Arg("id") id: string) {
    return id;
  }
}

class OnlyTool {
  @Tool({ description: "t" }) t() {
    return "t";
  }
}

const tableOf = (...classes: Function[]) => new FeatureTable(BUILT_IN_FEATURES, { components: classes, logger: new SilentLogger() });

describe("capabilitiesFor", () => {
  it("advertises every registered kind, with resource subscriptions for 2026-07-28", () => {
    expect(capabilitiesFor(tableOf(Everything), "modern")).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
      logging: {},
    });
  });

  it("defaults to the 2026-07-28 era", () => {
    expect(capabilitiesFor(tableOf(Everything))).toEqual(capabilitiesFor(tableOf(Everything), "modern"));
  });

  it("never advertises resources.subscribe to the 2025 era", () => {
    expect(capabilitiesFor(tableOf(Everything), "legacy").resources).toEqual({ listChanged: true });
  });

  it("advertises completions for a template alone, and nothing for absent kinds", () => {
    expect(capabilitiesFor(tableOf(OnlyTemplate), "modern")).toEqual({
      resources: { listChanged: true, subscribe: true },
      completions: {},
      logging: {},
    });
    expect(capabilitiesFor(tableOf(OnlyTool), "modern")).toEqual({ tools: { listChanged: true }, logging: {} });
  });
});
