// Pins the feature table, the one list of methods the dispatcher and the SDK bridge read:
// - the built-in methods as plain data: which may answer input_required, which param the HTTP
//   Mcp-Name header mirrors (tools/call and prompts/get: name; resources/read: uri) and which
//   capability gates each;
// - capabilities merge across features, extensions key by key;
// - a method answered by two features, or a component claimed by two strategies, fails the build;
// - a later feature sees the components compiled before it;
// - a feature's resource source: its entries listed after the app's own in resources/list, asked
//   by resources/read for a uri no @Resource serves (its component then runs like any other), and
//   the resources capability advertised for it; every feature gets the app's change announcer;
// - once every feature compiled, each is linked: entryMeta adds _meta to any feature's list entry
//   (key by key over the entry's own, a later feature's key winning), and the resources feature
//   routes and lists the resource components a later feature compiled;
// - a component's required features must be listed.
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

  it("lists and reads a feature's resource source after the app's own, and hands features the app's announcer", async () => {
    const announced: string[] = [];
    const changes = {
      toolsChanged: () => announced.push("tools"),
      promptsChanged: () => announced.push("prompts"),
      resourcesChanged: () => announced.push("resources"),
      resourceUpdated: (uri: string) => announced.push(uri),
    };
    const reader = { read: () => "from the source" };
    const component = {
      ...new FeatureTable(BUILT_IN_FEATURES, { components: [Everything], logger: new SilentLogger() }).components.find(
        (c) => c.ref.kind === "resource",
      )!,
      ref: { kind: "resource" as const, name: "extra://{+path}" },
      instance: reader,
      methodName: "read",
      params: [],
    };
    const listed = Object.freeze([{ uri: "extra://one", name: "one" }]);
    let seenChanges: unknown;
    const withSource: FeatureModule = {
      name: "extra",
      compile: (context) => {
        seenChanges = context.changes;
        return {
          methods: [],
          capabilities: () => ({}),
          resources: { list: () => listed, scoped: false, select: (uri) => (uri.startsWith("extra://") ? { component } : undefined) },
        };
      },
    };
    const built = new FeatureTable([...BUILT_IN_FEATURES, withSource], { components: [], logger: new SilentLogger(), changes });
    expect(seenChanges).toBe(changes);
    expect(built.capabilities("modern")).toMatchObject({ resources: { listChanged: true } });
    const request = { method: "resources/list", params: {}, principal: null, clientCapabilities: {} };
    const list = await (built.method("resources/list") as unknown as { handle(r: unknown): Promise<{ resources: unknown[] }> }).handle(
      request,
    );
    expect(list.resources).toEqual([{ uri: "extra://one", name: "one" }]);
    const read = built.method("resources/read") as unknown as { select(r: unknown): { component: unknown } };
    expect(read.select({ ...request, method: "resources/read", params: { uri: "extra://one" } }).component).toBe(component);
    expect(() => read.select({ ...request, method: "resources/read", params: { uri: "other://x" } })).toThrow("Resource not found");
    const both = new FeatureTable([...BUILT_IN_FEATURES, withSource], { components: [Everything], logger: new SilentLogger() });
    const joined = await (
      both.method("resources/list") as unknown as { handle(r: unknown): Promise<{ resources: { uri: string }[] }> }
    ).handle(request);
    expect(joined.resources.map((r) => r.uri)).toEqual(["test://r", "extra://one"]);
  });

  it("links every feature once all compiled: entries carry the _meta features add, later resources are routed", async () => {
    let linked: readonly ComponentDefinition[] = [];
    const annotate = (name: string, meta: Record<string, unknown>): FeatureModule => ({
      name,
      compile: () => ({
        methods: [],
        capabilities: () => ({}),
        entryMeta: (component) => (component.ref.kind === "tool" ? meta : undefined),
        link: ({ components }) => void (linked = components),
      }),
    });
    const foreign: FeatureModule = {
      name: "foreign",
      compile: ({ components }) => {
        const resource = components.find((c) => c.ref.kind === "resource")!;
        const component: ComponentDefinition = {
          ...resource,
          ref: { kind: "resource", name: "late://page" },
          where: "Late.page",
          descriptor: { uri: "late://page", name: "late" },
        };
        return { methods: [], capabilities: () => ({}), components: [component] };
      },
    };
    class Annotated {
      @Tool({ _meta: { own: 1, shared: "own" } }) t() {
        return "t";
      }
      @Resource({ uri: "test://r" }) r() {
        return "r";
      }
    }
    const built = table([...BUILT_IN_FEATURES, annotate("a", { a: 1, shared: "a" }), annotate("b", { shared: "b" }), foreign], Annotated);
    expect(linked.map((c) => c.ref.name)).toEqual(["t", "test://r", "late://page"]);
    const request = { method: "tools/list", params: {}, principal: null, clientCapabilities: {} };
    const tools = (await built.method("tools/list")!.handle!(request)) as { tools: { _meta?: unknown }[] };
    expect(tools.tools[0]!._meta).toEqual({ own: 1, shared: "b", a: 1 });
    const resources = (await built.method("resources/list")!.handle!({ ...request, method: "resources/list" })) as {
      resources: { uri: string }[];
    };
    expect(resources.resources.map((r) => r.uri)).toEqual(["late://page", "test://r"]);
    const selected = built.method("resources/read")!.select!({ ...request, method: "resources/read", params: { uri: "late://page" } });
    expect(selected.component.where).toBe("Late.page");
  });

  it("requires a component's required features to be listed", () => {
    const needy: FeatureModule = {
      name: "needy",
      compile: ({ components }) => ({
        methods: [],
        capabilities: () => ({}),
        components: [{ ...components[0]!, where: "Needy.x", requiredFeatures: [{ name: "helper", fix: "list helper()" }] }],
      }),
    };
    expect(() => table([...BUILT_IN_FEATURES, needy], Everything)).toThrow(
      new RegistrationError("Needy.x: needs the helper feature, which the app does not list; list helper()"),
    );
    expect(() => table([...BUILT_IN_FEATURES, needy, extension("helper")], Everything)).not.toThrow();
  });
});
