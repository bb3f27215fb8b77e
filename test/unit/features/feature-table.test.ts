// Pins the feature table, the one list of methods the dispatcher and the SDK bridge read:
// - the built-in methods as plain data: which may answer input_required, which param the HTTP
//   Mcp-Name header mirrors (tools/call and prompts/get: name; resources/read: uri) and which
//   capability gates each;
// - capabilities merge across features, extensions key by key;
// - a method answered by two features, or a component claimed by two strategies, fails the build;
// - a later feature sees the components compiled before it.
import "reflect-metadata";
import { BUILT_IN_FEATURES } from "../../../src/features/built-in-features";
import type { ComponentDefinition } from "../../../src/features/component-definition";
import type { FeatureModule } from "../../../src/features/feature-module";
import { FeatureTable } from "../../../src/features/feature-table";
import { Prompt, RegistrationError, Resource, Tool } from "../../../src/index";
import { SilentLogger } from "../../../src/testing/index";

class Everything {
  @Tool() t() {
    return "t";
  }
  @Prompt() p() {
    return "p";
  }
  @Resource({ uri: "test://r" }) r() {
    return "r";
  }
}

const table = (modules: readonly FeatureModule[], ...components: Function[]) =>
  new FeatureTable(modules, { components, logger: new SilentLogger() });
const extension = (name: string, extra: Partial<ReturnType<FeatureModule["compile"]>> = {}): FeatureModule => ({
  name,
  compile: () => ({ methods: [], capabilities: () => ({ extensions: { [name]: {} } }), ...extra }),
});

describe("FeatureTable", () => {
  it("lists the built-in methods as data", () => {
    const methods = table(BUILT_IN_FEATURES, Everything).methods.map(({ method, inputRequired, nameParam, capability }) => ({
      method,
      inputRequired,
      nameParam,
      capability,
    }));
    expect(methods).toEqual([
      { method: "tools/list", inputRequired: false, nameParam: undefined, capability: "tools" },
      { method: "tools/call", inputRequired: true, nameParam: "name", capability: "tools" },
      { method: "prompts/list", inputRequired: false, nameParam: undefined, capability: "prompts" },
      { method: "prompts/get", inputRequired: true, nameParam: "name", capability: "prompts" },
      { method: "resources/list", inputRequired: false, nameParam: undefined, capability: "resources" },
      { method: "resources/templates/list", inputRequired: false, nameParam: undefined, capability: "resources" },
      { method: "resources/read", inputRequired: true, nameParam: "uri", capability: "resources" },
      { method: "completion/complete", inputRequired: false, nameParam: undefined, capability: "completions" },
    ]);
  });

  it("merges capabilities, extensions key by key", () => {
    const merged = table([...BUILT_IN_FEATURES, extension("a/one"), extension("b/two")], Everything).capabilities("modern");
    expect(merged).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
      extensions: { "a/one": {}, "b/two": {} },
    });
  });

  it("refuses a method answered by two features", () => {
    const again = extension("again", { methods: [{ method: "tools/call", inputRequired: true, handle: async () => ({}) }] });
    expect(() => table([...BUILT_IN_FEATURES, again], Everything)).toThrow(
      new RegistrationError('method "tools/call" is answered by both the tools and the again feature'),
    );
  });

  it("refuses a component claimed by two strategies, and finds the one that claims it", () => {
    const claimAll = { claims: () => true, execute: async () => ({ kind: "inline" as const, value: undefined }) };
    expect(() =>
      table([...BUILT_IN_FEATURES, extension("x", { execution: claimAll }), extension("y", { execution: claimAll })], Everything),
    ).toThrow(/Everything\.t: claimed by more than one execution strategy/);
    const one = table(
      [...BUILT_IN_FEATURES, extension("x", { execution: { ...claimAll, claims: (c) => c.ref.kind === "tool" } })],
      Everything,
    );
    expect(one.components.map((c) => [c.ref.name, one.strategyFor(c) !== undefined])).toEqual([
      ["t", true],
      ["p", false],
      ["test://r", false],
    ]);
  });

  it("hands a feature the components compiled before it", () => {
    let seen: readonly ComponentDefinition[] = [];
    table(
      [
        ...BUILT_IN_FEATURES,
        { name: "late", compile: ({ components }) => ((seen = components), { methods: [], capabilities: () => ({}) }) },
      ],
      Everything,
    );
    expect(seen.map((c) => c.ref)).toEqual([
      { kind: "tool", name: "t" },
      { kind: "prompt", name: "p" },
      { kind: "resource", name: "test://r" },
    ]);
  });
});
