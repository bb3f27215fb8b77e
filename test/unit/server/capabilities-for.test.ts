// Pins which server capabilities an app advertises from what it registered (capabilitiesFor):
// - tools / prompts / resources each with listChanged, only when some are registered;
// - completions when there is a prompt or a resource template; logging always;
// - resources.subscribe for 2026-07-28 traffic only (resourceSubscriptions on subscriptions/listen),
//   never for the 2025 era, where it would promise the unimplemented resources/subscribe.
import "reflect-metadata";
import { Arg, Prompt, Resource, Tool } from "../../../src/index";
import { ComponentRegistry } from "../../../src/registry/component-registry";
import type { Dispatcher } from "../../../src/dispatch/dispatcher";
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

const dispatcherOf = (...classes: Function[]) => ({ registry: new ComponentRegistry(classes) }) as unknown as Dispatcher;

describe("capabilitiesFor", () => {
  it("advertises every registered kind, with resource subscriptions for 2026-07-28", () => {
    expect(capabilitiesFor(dispatcherOf(Everything), "modern")).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
      logging: {},
    });
  });

  it("defaults to the 2026-07-28 era", () => {
    expect(capabilitiesFor(dispatcherOf(Everything))).toEqual(capabilitiesFor(dispatcherOf(Everything), "modern"));
  });

  it("never advertises resources.subscribe to the 2025 era", () => {
    expect(capabilitiesFor(dispatcherOf(Everything), "legacy").resources).toEqual({ listChanged: true });
  });

  it("advertises completions for a template alone, and nothing for absent kinds", () => {
    expect(capabilitiesFor(dispatcherOf(OnlyTemplate), "modern")).toEqual({
      resources: { listChanged: true, subscribe: true },
      completions: {},
      logging: {},
    });
    expect(capabilitiesFor(dispatcherOf(OnlyTool), "modern")).toEqual({ tools: { listChanged: true }, logging: {} });
  });
});
