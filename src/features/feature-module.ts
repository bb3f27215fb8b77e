import type { AppLogger } from "../protocol/app-logger";
import type { Era, InboundRequest } from "../protocol/inbound-request";
import type { JsonObject, ListCacheHint } from "../protocol/wire-types";
import type { ComponentCompiler, DeclaredComponent } from "./component-compiler";
import type { ComponentDefinition } from "./component-definition";
import type { ComponentRunner, ExecutionStrategy } from "./component-runner";
import type { ListPaging } from "./list-result";
import type { ScopeHierarchy } from "./scope-hierarchy";

/** The request param the HTTP `Mcp-Name` header mirrors. */
export type McpNameParam = "name" | "uri" | "taskId";

/** A method as plain data: what the router, the SDK bridge and an HTTP fast lane read. */
export interface MethodSpec {
  readonly method: string;
  /** May answer `input_required`; admission refuses it from every other method. */
  readonly inputRequired: boolean;
  /** The request param the `Mcp-Name` header mirrors over HTTP, if any. */
  readonly nameParam?: McpNameParam;
  /** The server capability that gates the method: it is served only when that is advertised. */
  readonly capability?: string;
  /** The eras that serve it; both when absent. */
  readonly eras?: readonly Era[];
  /** JSON Schema of the params, for a method the SDK has no built-in schema for (tasks/get, tasks/update ...). */
  readonly paramsSchema?: JsonObject;
  /**
   * JSON Schema of the params as they travel (`paramsSchema` when absent). Every request is
   * checked against it after the SDK routed it and before anything else reads the params: a
   * mismatch is -32602 with a one-line message naming the first problem.
   */
  readonly paramsShape?: JsonObject;
  /**
   * The method may be answered by the fast lane (server/lane/), which writes the bytes the SDK path
   * would: declare it only for a method the SDK has a built-in dispatch schema for, accepting
   * exactly what `paramsShape` accepts, or a custom method whose `paramsSchema` (which the SDK path
   * then checks) is its whole params check (skills/list). Absent: every request takes the SDK path.
   */
  readonly direct?: DirectAnswer;
}

/** How the SDK path writes a method's results, as far as the fast lane writes them itself. */
export interface DirectAnswer {
  /** Complete results carry `ttlMs` and `cacheScope` (appended when absent), as the SDK writes them for cacheable methods. */
  readonly cacheable: boolean;
  /**
   * The result schema the SDK applies: `"as-is"` (results pass unchanged), `"tool-result"` (a
   * `CallToolResult`: text content only, keys in the schema's order), `"tool-list"` (a list whose
   * tools carry no `execution`). Any other result is left to the SDK path to write.
   */
  readonly result: "as-is" | "tool-result" | "tool-list";
}

/** Reads one request header by its lower-case name. */
export type HeaderLookup = (name: string) => string | undefined;

/** The component a request's name or URI selects, and what the selection matched (a resource template's variables). */
export interface Selection {
  readonly component: ComponentDefinition;
  /** Handed back to the component's `bind`; none when absent. */
  readonly matched?: Readonly<Record<string, string>>;
}

/** What every method may add to its spec. */
export interface MethodHooks extends MethodSpec {
  /** HTTP only: checks headers that mirror params (`Mcp-Param-*`); returns the mismatch, or undefined. */
  checkHeaders?(params: JsonObject, header: HeaderLookup): string | undefined;
  /**
   * The scopes the component these params name needs (undefined when they name none): lets a
   * transport refuse an under-scoped request before anything is dispatched (HTTP's 403 challenge).
   */
  scopesFor?(params: JsonObject): readonly string[] | undefined;
}

/** A method that answers by itself (a list, `tasks/get`): the dispatcher returns what `handle` gives. */
export interface AnsweringMethod extends MethodHooks {
  handle(request: InboundRequest): Promise<JsonObject>;
  readonly select?: never;
}

/**
 * A method that runs one component (`tools/call`, `prompts/get`, `resources/read`): `select`
 * finds it (or throws the refusal, for example -32602 for an unknown name) and the dispatcher
 * runs it, with middleware, rounds and admission.
 */
export interface SelectingMethod extends MethodHooks {
  select(request: InboundRequest): Selection;
  readonly handle?: never;
}

/** A method and how it is answered. */
export type FeatureMethod = AnsweringMethod | SelectingMethod;

/** What a feature compiles from, once, when the app is built. */
export interface FeatureContext {
  /** Every component declaration of the app's classes; a feature compiles the kinds it owns. */
  readonly declarations: readonly DeclaredComponent[];
  /** Components compiled by the features registered before this one. */
  readonly components: readonly ComponentDefinition[];
  readonly compiler: ComponentCompiler;
  /** Cache hints for list results (`McpAppOptions.listCache`). */
  readonly listCache: ListCacheHint;
  /** How lists are paged (`McpAppOptions.listPageSize`, the cache hints, the cursors): give it to `listResult`. */
  readonly lists: ListPaging;
  /** The app's scope hierarchy: lists show only what the caller's scopes allow. */
  readonly scopes: ScopeHierarchy;
  readonly logger: AppLogger;
  /** The app's name (`McpAppOptions.name`, "roundtrip-mcp-app" when it gives none): per-app defaults derive from it. */
  readonly appName: string;
  /**
   * Announces list changes to the app's open `subscriptions/listen` streams and 2025 sessions (the
   * app's `changes`): a feature whose entries change after bootstrap (the skills feature's
   * `reload()`) says so here.
   */
  readonly changes: ChangeAnnouncer;
  /**
   * The resource sources of every feature of the app (`CompiledFeature.resources`), complete once
   * the app is built: read it when serving, not while compiling. The resources feature lists and
   * reads them beside the app's own `@Resource` components.
   */
  resourceSources(): readonly ResourceSource[];
}

/** The list changes a feature may announce (the app's `ChangeNotifier` is one). */
export interface ChangeAnnouncer {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * Resources a feature serves through the app's `resources/list` and `resources/read` besides the
 * `@Resource` components (the skills feature: every file of every skill). Its listed entries
 * follow the app's own in `resources/list`; `resources/read` asks it for a URI no `@Resource`
 * serves, and runs the component it selects like any other (scopes, middleware, rate limits).
 */
export interface ResourceSource {
  /** What this request may see of its listed resources, in their stable order (the same array while nothing changes). */
  list(request: InboundRequest): readonly JsonObject[];
  /** True when some listed entry is visible to some callers only: the list's `cacheScope` is then "private". */
  readonly scoped: boolean;
  /** The component that reads `uri`, or undefined when this source does not serve it (it may throw a refusal instead). */
  select(uri: string): Selection | undefined;
}

/** A feature once compiled: everything the router, the runner and the SDK bridge need from it. */
export interface CompiledFeature {
  /** The components it compiled: the runner applies middleware, rounds and admission to them. */
  readonly components?: readonly ComponentDefinition[];
  readonly methods: readonly FeatureMethod[];
  /** What it adds to the advertised server capabilities, per era. */
  capabilities(era: Era): JsonObject;
  /** Takes over the invocation of the components it claims (tasks). */
  readonly execution?: ExecutionStrategy;
  /**
   * Starts background work once the app is built (the tasks feature recovers the tasks of a
   * process that died); `runner` runs and restores components outside any request.
   */
  start?(runner: ComponentRunner): void;
  /** Frees what it holds (timers, stores) when the app closes. */
  close?(): Promise<void>;
  /**
   * Told each time the app starts serving over HTTP (`listen()`, `nodeHandler()`), and whether
   * it authenticates its callers: the tasks feature warns when every caller would share one scope.
   */
  serving?(facts: ServingFacts): void;
  /**
   * What the feature needs reachable to serve (the tasks feature: its store), probed by the app's
   * readiness endpoint: each check resolves when it is, rejects (with a message for the log) when not.
   */
  readonly readiness?: readonly ReadinessProbe[];
  /**
   * What the feature adds to a component's description (`McpApp.describe()`, printed by `roundtrip-mcp
   * inspect`), as plain JSON under the feature's name; undefined for a component it has nothing to
   * say about. The tasks feature describes its task tools' `support`, `ttlMs` and retry policy.
   */
  describe?(component: ComponentDefinition): JsonObject | undefined;
  /**
   * What the feature says about itself beyond any one component (`McpApp.describe().featureFacts`,
   * printed by `roundtrip-mcp inspect`), as plain JSON under the feature's name; undefined when it
   * has nothing to say. The skills feature lists the skills it serves, with their paths, scopes and
   * file counts. Asked each time the app is described, so it tells what is served now.
   */
  describeFeature?(): JsonObject | undefined;
  /** Resources it serves through `resources/list` and `resources/read` (see `ResourceSource`). */
  readonly resources?: ResourceSource;
  /**
   * `_meta` this feature adds to the list entry of any feature's component (the apps extension's
   * `ui` on a tool linked to a view), or undefined. Asked once per component when the app is built;
   * merged key by key over the component's own `_meta` (a later feature's key wins).
   */
  entryMeta?(component: ComponentDefinition): JsonObject | undefined;
  /**
   * Called once every feature has compiled, before anything is served: builds what depends on the
   * other features' components (the built-in features' lists with their entries' `_meta`; the
   * resources feature routes the resources a later feature compiled, such as the apps extension's views).
   */
  link?(context: LinkContext): void;
}

/** What a feature learns once every feature of the app has compiled. */
export interface LinkContext {
  /** Every component of every feature, in feature order. */
  readonly components: readonly ComponentDefinition[];
  /** The component's descriptor as listed: its own, with the `_meta` every feature's `entryMeta` adds (the same object each time). */
  listed(component: ComponentDefinition): JsonObject;
}

/** One dependency a readiness probe checks: its name (in the probe's answer) and the check. */
export interface ReadinessProbe {
  readonly name: string;
  check(): Promise<void>;
}

/** What a feature learns when the app starts serving. */
export interface ServingFacts {
  readonly transport: "http";
  /** False when `listen()` or `nodeHandler()` was given no `authenticate`: every caller is anonymous (principal null). */
  readonly authenticated: boolean;
}

/**
 * One MCP feature (tools, resources, prompts, completion; extensions such as tasks): compiles its
 * declarations, answers its methods, shapes its results, and says what it adds to the advertised
 * capabilities. A feature with options is a function returning its module; the options stay in
 * its closure, so `McpAppOptions` needs no field per feature: the app lists the module in
 * `features`. See docs/architecture.md, "Adding a feature".
 */
export interface FeatureModule {
  /** For messages: "tools", "io.modelcontextprotocol/tasks", ... */
  readonly name: string;
  compile(context: FeatureContext): CompiledFeature;
}
