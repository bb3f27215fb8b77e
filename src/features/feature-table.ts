import { componentDeclarations, declarationRunsMethod, DECLARATION_FEATURES } from "../decorators/component-declaration";
import type { AppLogger } from "../protocol/app-logger";
import type { Era } from "../protocol/inbound-request";
import { isPlainObject } from "../protocol/plain-object";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";
import { ComponentCompiler, type DeclaredComponent } from "./component-compiler";
import type { ComponentDefinition } from "./component-definition";
import type { ComponentRunner, ExecutionStrategy } from "./component-runner";
import type {
  ChangeAnnouncer,
  CompiledFeature,
  FeatureMethod,
  FeatureModule,
  LinkContext,
  ReadinessProbe,
  ResourceSource,
  ServingFacts,
} from "./feature-module";
import { RegistrationError } from "./registration-error";
import { ListCursors } from "./list-cursor";
import { DEFAULT_LIST_PAGE_SIZE, type ListPaging } from "./list-result";
import type { StateSealer } from "../state/state-sealer";
import { ScopeHierarchy, type ScopeHierarchyOptions } from "./scope-hierarchy";
import { describeComponent, type AppDescription, type ComponentDescription } from "./component-description";

/** The name of an app that gives none (`McpAppOptions.name`). */
export const DEFAULT_APP_NAME = "roundtrip-mcp-app";

export interface FeatureTableOptions {
  /** Decorated component classes. */
  components: readonly Function[];
  listCache?: ListCacheHint;
  logger: AppLogger;
  /** The app's name (`McpAppOptions.name`), for defaults that must differ between apps. */
  appName?: string;
  /** Entries per list page (`McpAppOptions.listPageSize`); default 100. */
  listPageSize?: number;
  /** Seals list cursors; without it every list is one page and any cursor is refused. */
  sealer?: () => StateSealer;
  /** Which scope implies which (`McpAppOptions.scopeHierarchy`). */
  scopeHierarchy?: ScopeHierarchyOptions;
  /** Where features announce list changes (the app's `changes`); without it, announcements go nowhere. */
  changes?: ChangeAnnouncer;
}

/** Announces nothing: a table built without the app's notifier (unit tests). */
const NO_CHANGES: ChangeAnnouncer = { toolsChanged() {}, promptsChanged() {}, resourcesChanged() {}, resourceUpdated() {} };

/**
 * The app's features, compiled once in order: the one table the dispatcher routes on and the SDK
 * bridge registers from. Nothing else lists methods or capabilities.
 */
export class FeatureTable {
  /** Every compiled component, in feature order. */
  readonly components: readonly ComponentDefinition[];
  /** Every method of every feature, in feature order. */
  readonly methods: readonly FeatureMethod[];
  /** The app's scope hierarchy: what a granted scope implies. */
  readonly scopes: ScopeHierarchy;
  private readonly features: readonly CompiledFeature[];
  /** Each compiled feature's `FeatureModule.name`. */
  private readonly names = new Map<CompiledFeature, string>();
  private readonly byMethod = new Map<string, FeatureMethod>();
  private readonly strategies = new Map<ComponentDefinition, ExecutionStrategy>();

  constructor(modules: readonly FeatureModule[], options: FeatureTableOptions) {
    const declarations = declaredComponents(options.components);
    const compiler = new ComponentCompiler();
    const listCache = options.listCache ?? { ttlMs: 0, cacheScope: "private" };
    const pageSize = options.listPageSize ?? DEFAULT_LIST_PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1)
      throw new RangeError(`McpApp.create: listPageSize must be a positive integer, got ${String(pageSize)}`);
    const lists: ListPaging = {
      cache: listCache,
      pageSize,
      ...(options.sealer !== undefined && { cursors: new ListCursors(options.sealer) }),
    };
    const scopes = (this.scopes = new ScopeHierarchy(options.scopeHierarchy));
    const features: CompiledFeature[] = [];
    const names = this.names;
    const components: ComponentDefinition[] = [];
    const owners = new Map<string, string>();
    // Filled as features compile; read by the resources feature when it serves (complete by then).
    const resourceSources: ResourceSource[] = [];
    for (const module of modules) {
      const feature = module.compile({
        declarations,
        components: [...components],
        compiler,
        listCache,
        lists,
        scopes,
        logger: options.logger,
        appName: options.appName ?? DEFAULT_APP_NAME,
        changes: options.changes ?? NO_CHANGES,
        resourceSources: () => resourceSources,
      });
      features.push(feature);
      if (feature.resources !== undefined) resourceSources.push(feature.resources);
      names.set(feature, module.name);
      components.push(...(feature.components ?? []));
      for (const method of feature.methods) {
        const owner = owners.get(method.method);
        if (owner !== undefined)
          throw new RegistrationError(`method "${method.method}" is answered by both the ${owner} and the ${module.name} feature`);
        owners.set(method.method, module.name);
        this.byMethod.set(method.method, method);
      }
    }
    const listed = new Set(names.values());
    for (const { declaration, where } of declarations) {
      const needed = DECLARATION_FEATURES[declaration.kind];
      if (needed !== undefined && !listed.has(needed.name)) {
        const decorator = `@${declaration.kind[0]!.toUpperCase()}${declaration.kind.slice(1)}`;
        throw new RegistrationError(`${where}: ${decorator} needs the ${needed.name} feature, which the app does not list; ${needed.fix}`);
      }
    }
    for (const component of components) {
      const claimed = features.filter((f) => f.execution?.claims(component));
      if (claimed.length > 1) throw new RegistrationError(`${component.where}: claimed by more than one execution strategy`);
      const [claimer] = claimed;
      if (claimer !== undefined) this.strategies.set(component, claimer.execution!);
      for (const required of component.requiredFeatures ?? []) {
        if (!listed.has(required.name))
          throw new RegistrationError(
            `${component.where}: needs the ${required.name} feature, which the app does not list; ${required.fix}`,
          );
      }
    }
    linkFeatures(features, components);
    this.features = features;
    this.components = components;
    this.methods = [...this.byMethod.values()];
  }

  /** The method's entry, or undefined when no feature answers it. */
  method(name: string): FeatureMethod | undefined {
    return this.byMethod.get(name);
  }

  /** The strategy that executes this component instead of an inline call, if one claimed it. */
  strategyFor(component: ComponentDefinition): ExecutionStrategy | undefined {
    return this.strategies.get(component);
  }

  /** What the features advertise for this era, merged (`extensions` and other objects key by key). */
  capabilities(era: Era): JsonObject {
    const merged: JsonObject = {};
    for (const feature of this.features) {
      for (const [key, value] of Object.entries(feature.capabilities(era))) {
        const before = merged[key];
        merged[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
      }
    }
    return merged;
  }

  /** The features' names, in order. */
  featureNames(): string[] {
    return this.features.map((f) => this.names.get(f)!);
  }

  /** Every component described, with what each feature adds to it (`CompiledFeature.describe`). */
  describe(): ComponentDescription[] {
    return this.components.map((c) =>
      describeComponent(
        c,
        this.features.map((f) => [this.names.get(f)!, f.describe?.(c)] as const),
      ),
    );
  }

  /**
   * The app described (`McpApp.describe()`): its identity, the features' names, every component,
   * and what each feature says about itself (`CompiledFeature.describeFeature`, left out when it says nothing).
   */
  describeApp(identity: { readonly name: string; readonly version: string; readonly title?: string }): AppDescription {
    const featureFacts: Record<string, JsonObject> = {};
    for (const feature of this.features) {
      const facts = feature.describeFeature?.();
      if (facts !== undefined) featureFacts[this.names.get(feature)!] = facts;
    }
    return { ...identity, features: this.featureNames(), components: this.describe(), featureFacts };
  }

  /** Lets every feature start its background work, once the app is built. */
  start(runner: ComponentRunner): void {
    for (const feature of this.features) feature.start?.(runner);
  }

  /** What every feature needs reachable to serve (see CompiledFeature.readiness). */
  readiness(): ReadinessProbe[] {
    return this.features.flatMap((feature) => feature.readiness ?? []);
  }

  /** Tells every feature the app started serving (see CompiledFeature.serving). */
  serving(facts: ServingFacts): void {
    for (const feature of this.features) feature.serving?.(facts);
  }

  /** Lets every feature free what it holds. */
  async close(): Promise<void> {
    await Promise.all(this.features.map((f) => f.close?.()));
  }
}

/**
 * Tells every feature the components of all (`CompiledFeature.link`), with each component's list
 * entry: its descriptor with the `_meta` the features add (`entryMeta`), made once per component.
 */
function linkFeatures(features: readonly CompiledFeature[], components: readonly ComponentDefinition[]): void {
  const contributors = features.filter((f) => f.entryMeta !== undefined);
  const entries = new Map<ComponentDefinition, JsonObject>();
  const context: LinkContext = {
    components,
    listed(component) {
      let entry = entries.get(component);
      if (entry === undefined) {
        entry = component.descriptor;
        for (const feature of contributors) {
          const meta = feature.entryMeta!(component);
          if (meta === undefined) continue;
          const own: JsonObject = isPlainObject(entry._meta) ? entry._meta : {};
          entry = { ...entry, _meta: { ...own, ...meta } };
        }
        entries.set(component, entry);
      }
      return entry;
    },
  };
  for (const feature of features) feature.link?.(context);
}

/** Every declaration of every class, after the checks that do not depend on a feature. */
function declaredComponents(classes: readonly Function[]): DeclaredComponent[] {
  const seen = new Set<Function>();
  const out: DeclaredComponent[] = [];
  for (const cls of classes) {
    if (typeof cls !== "function") throw new RegistrationError(`components: expected a class, got ${typeof cls}`);
    if (seen.has(cls)) throw new RegistrationError(`${cls.name}: listed twice in components`);
    seen.add(cls);
    const declarations = componentDeclarations(cls);
    if (declarations.length === 0) throw new RegistrationError(`${cls.name}: no @Tool, @Resource or @Prompt declaration found`);
    for (const declaration of declarations) {
      const where = `${cls.name}.${declaration.methodName}`;
      if (declarationRunsMethod(declaration) && typeof (cls.prototype as Record<string, unknown>)[declaration.methodName] !== "function") {
        throw new RegistrationError(`${where}: method ${declaration.methodName}() not found (a class component needs a handle() method)`);
      }
      out.push({ cls, declaration, where });
    }
  }
  return out;
}
