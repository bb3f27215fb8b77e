import type { DependencyContainer } from "tsyringe";
import type { ComponentRegistry } from "../registry/component-registry";
import type { ComponentDefinition, PromptDefinition, ResourceDefinition, ToolDefinition } from "../registry/definitions";
import { frozenCopy } from "../protocol/frozen-copy";
import { isPlainObject } from "../protocol/plain-object";
import { describeViolations } from "../schema/dto-validator";
import { missingCapabilities } from "../elicitation/capabilities";
import type { StateSealer } from "../state/state-sealer";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, isMcpError, McpError } from "../protocol/errors";
import type { ComponentRef, Middleware } from "../protocol/middleware";
import type { LogLevel, ProgressReporter, RequestContext, RequestLogger } from "../protocol/request-context";
import { isReask, Result } from "./result";
import { RoundPlanner, type CarriedState } from "./round-planner";
import { OutputSchemaViolation, shapePromptResult, shapeResourceResult, shapeToolResult } from "./result-shaping";
import type { ClientCapabilities, InputRequest, JsonObject } from "../protocol/wire-types";

/** What a transport adapter hands the dispatcher for one request. */
export interface DispatchRequest {
  method: string;
  /** Params exactly as received (including `_meta`, `inputResponses`, `requestState`). */
  params: JsonObject;
  principal: string | null;
  /** Capabilities declared for this request (2025 era: those of `initialize`). */
  clientCapabilities: ClientCapabilities;
  protocolVersion?: string;
  /** "legacy" for a 2025-era request (capabilities from initialize, answers from the SDK's shim). */
  era?: "modern" | "legacy";
  /** Retry material as received; undefined when absent. */
  inputResponses?: unknown;
  requestState?: unknown;
  progress?: ProgressReporter;
  log?: RequestLogger;
  signal?: AbortSignal;
}

/** Checks every final result; throw an `McpError` to replace it with that error. */
export type ResultValidator = (result: JsonObject, info: { ctx: RequestContext; component: ComponentRef }) => void | Promise<void>;

export interface ListCacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

export interface DispatcherOptions {
  registry: ComponentRegistry;
  container: DependencyContainer;
  sealer: StateSealer;
  logger: AppLogger;
  middleware?: readonly Middleware[];
  resultValidator?: ResultValidator;
  listCache?: ListCacheHint;
}

const INPUT_REQUIRED_METHODS = new Set(["tools/call", "resources/read", "prompts/get"]);
const NO_PROGRESS: ProgressReporter = Object.freeze({ enabled: false, report: async () => {} });
const NO_LOG: RequestLogger = Object.freeze({ level: undefined, log: async () => {} });
const NEVER_ABORTED = new AbortController().signal;

/**
 * Routes one MCP request to a registered component and shapes what comes back.
 * Transport-agnostic: it knows nothing of the SDK, HTTP or stdio. Everything per request is a
 * map lookup plus the component's own work; schemas and validators were built at bootstrap.
 */
export class Dispatcher {
  private readonly planner: RoundPlanner;
  private readonly listCache: ListCacheHint;

  constructor(private readonly options: DispatcherOptions) {
    this.planner = new RoundPlanner(options.sealer);
    this.listCache = options.listCache ?? { ttlMs: 0, cacheScope: "private" };
  }

  get registry(): ComponentRegistry {
    return this.options.registry;
  }

  async handle(request: DispatchRequest): Promise<JsonObject> {
    const { registry } = this.options;
    switch (request.method) {
      case "tools/list":
        return this.list(request, "tools", registry.toolList);
      case "prompts/list":
        return this.list(request, "prompts", registry.promptList);
      case "resources/list":
        return this.list(request, "resources", registry.resourceList);
      case "resources/templates/list":
        return this.list(request, "resourceTemplates", registry.templateList);
      case "tools/call": {
        const name = request.params.name;
        const tool = typeof name === "string" ? registry.tools.get(name) : undefined;
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${String(name)}`);
        return this.run(tool, request);
      }
      case "prompts/get": {
        const name = request.params.name;
        const prompt = typeof name === "string" ? registry.prompts.get(name) : undefined;
        if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(name)}`);
        return this.run(prompt, request);
      }
      case "resources/read": {
        const uri = request.params.uri;
        if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "resources/read needs a string uri");
        const found = registry.findResource(uri);
        if (!found) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
        return this.run(found.definition, request, found.variables);
      }
      case "completion/complete":
        return this.complete(request);
      default:
        throw new McpError(ErrorCode.MethodNotFound, "Method not found");
    }
  }

  private list(request: DispatchRequest, key: string, items: JsonObject[]): JsonObject {
    const cursor = request.params.cursor;
    if (cursor !== undefined) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
    return { resultType: "complete", [key]: items, ...this.listCache };
  }

  // ---- components ----

  private async run(def: ComponentDefinition, request: DispatchRequest, variables: Record<string, string> = {}): Promise<JsonObject> {
    checkRetryEnvelope(request);
    const ctx = makeContext(request);
    const chain = [...(this.options.middleware ?? []), ...def.middleware];
    const invoke = (index: number, current: RequestContext): Promise<unknown> => {
      if (index === chain.length) return this.invoke(def, current, variables);
      let called = false;
      const next = (replacement?: RequestContext) => {
        if (called) throw new Error("next() called twice by one middleware");
        called = true;
        return invoke(index + 1, replacement ?? current);
      };
      return Promise.resolve(chain[index](current, next, def.ref));
    };
    let outcome: unknown;
    try {
      outcome = await invoke(0, ctx);
    } catch (error) {
      return this.failure(def, ctx, error);
    }
    // Admission runs on what came back, with the ORIGINAL request's capabilities.
    if (isInputRequired(outcome)) return this.admit(outcome, request);
    let result: JsonObject;
    try {
      result = await this.shape(def, ctx, outcome);
      if (this.options.resultValidator) await this.options.resultValidator(result, { ctx, component: def.ref });
    } catch (error) {
      return this.failure(def, ctx, error);
    }
    return result;
  }

  private async invoke(def: ComponentDefinition, ctx: RequestContext, variables: Record<string, string>): Promise<unknown> {
    let args: unknown;
    if (def.kind === "tool" || def.kind === "prompt") {
      const bound = await def.bindArguments(ctx.requestParams.arguments);
      if (!bound.ok) {
        const message = `Invalid arguments for ${def.kind} ${def.name}: ${describeViolations(bound.violations)}`;
        if (def.kind === "tool") return Result.error(message);
        throw new McpError(ErrorCode.InvalidParams, message, { violations: bound.violations.map(({ field, constraint }) => ({ field, constraint })) });
      }
      args = bound.value;
    }
    let values: ReadonlyMap<string, unknown> = new Map();
    let state: CarriedState | undefined;
    if (def.elicits.length > 0) {
      const plan = await this.planner.plan(def.elicits, ctx);
      if (plan.kind === "ask") return Result.inputRequired({ inputRequests: plan.inputRequests, requestState: plan.requestState });
      if (plan.kind === "ended") return this.declined(def, plan.key, plan.action);
      values = plan.values;
      state = plan.state;
    }
    const instance = this.options.container.resolve(def.token as never) as Record<string, (...a: unknown[]) => unknown>;
    const parameters = def.params.map((p) => {
      switch (p.kind) {
        case "arguments": return args;
        case "argument": return def.kind === "resource" ? variables[p.name] : (args as Record<string, unknown>)[p.name];
        case "ctx": return ctx;
        case "elicit": return values.get(p.key);
      }
    });
    const returned = await instance[def.methodName](...parameters);
    if (isReask(returned)) {
      if (!state) throw new Error(`${def.where} returned Result.reask() but has no @Elicit parameters`);
      const plan = await this.planner.reask(def.elicits, ctx, returned.reask, state);
      if (plan.kind === "ask") return Result.inputRequired({ inputRequests: plan.inputRequests, requestState: plan.requestState });
      throw new Error(`${def.where}: Result.reask() left nothing to ask`);
    }
    if (def.elicits.length > 0 && isInputRequired(returned) && (returned as JsonObject).requestState !== undefined) {
      throw new Error(`${def.where}: a component with @Elicit parameters must not return its own requestState (use Result.reask)`);
    }
    return returned;
  }

  private declined(def: ComponentDefinition, key: string, action: "decline" | "cancel"): unknown {
    const verb = action === "decline" ? "declined" : "cancelled";
    if (def.kind === "tool") return Result.error(`The question "${key}" was ${verb}; the operation ended.`);
    throw new McpError(ErrorCode.InvalidParams, `The question "${key}" was ${verb}`, { key, action });
  }

  private admit(result: JsonObject, request: DispatchRequest): JsonObject {
    if (!INPUT_REQUIRED_METHODS.has(request.method)) {
      this.options.logger.error("input_required returned from a method that cannot carry it", { method: request.method });
      throw new McpError(ErrorCode.InternalError, "Internal error");
    }
    const inputRequests = result.inputRequests as Record<string, InputRequest> | undefined;
    const hasRequests = inputRequests !== undefined && inputRequests !== null && Object.keys(inputRequests).length > 0;
    if (!hasRequests && typeof result.requestState !== "string") {
      this.options.logger.error("input_required with neither inputRequests nor requestState", { method: request.method });
      throw new McpError(ErrorCode.InternalError, "Internal error");
    }
    if (hasRequests) {
      const missing = missingCapabilities(Object.values(inputRequests), request.clientCapabilities);
      if (missing) {
        const message =
          request.era === "legacy"
            ? `Missing required client capability: ${capabilityNames(missing).join(", ")}. This 2025-era client did not declare it ` +
              "(over stateless HTTP a 2025 client has no session to answer input requests on); use protocol 2026-07-28 or stdio"
            : "Missing required client capability";
        throw new McpError(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities: missing });
      }
    }
    const out: JsonObject = { resultType: "input_required" };
    if (hasRequests) out.inputRequests = inputRequests;
    if (typeof result.requestState === "string") out.requestState = result.requestState;
    return out;
  }

  private async shape(def: ComponentDefinition, ctx: RequestContext, value: unknown): Promise<JsonObject> {
    if (def.kind === "tool") return shapeToolResult(def, value);
    if (def.kind === "resource") return shapeResourceResult(def, ctx.requestParams.uri as string, value);
    return shapePromptResult(def, value);
  }

  /** Typed errors reach the wire; anything else is an isError tool result or a generic -32603. */
  private failure(def: ComponentDefinition, ctx: RequestContext, error: unknown): JsonObject {
    if (isMcpError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (def.kind === "tool" && !(error instanceof OutputSchemaViolation)) return { resultType: "complete", ...Result.error(message) };
    this.options.logger.error("component failed", { component: def.where, method: ctx.method, error: message });
    throw new McpError(ErrorCode.InternalError, "Internal error");
  }

  // ---- completion ----

  private async complete(request: DispatchRequest): Promise<JsonObject> {
    const { ref, argument, context } = request.params as { ref?: JsonObject; argument?: JsonObject; context?: JsonObject };
    if (!ref || typeof ref !== "object" || !argument || typeof argument.name !== "string" || typeof argument.value !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "completion/complete needs ref and argument {name, value}");
    }
    let providers: Readonly<Record<string, (r: { value: string; arguments: Record<string, string> }) => string[] | Promise<string[]>>>;
    if (ref.type === "ref/prompt") {
      const prompt = typeof ref.name === "string" ? this.options.registry.prompts.get(ref.name) : undefined;
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
      providers = prompt.completions;
    } else if (ref.type === "ref/resource") {
      const template = this.options.registry.templates.find((t) => t.template!.template === ref.uri);
      if (!template) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri)}`, { uri: ref.uri });
      providers = template.completions;
    } else {
      throw new McpError(ErrorCode.InvalidParams, `Unknown completion ref type: ${String(ref.type)}`);
    }
    const provider = providers[argument.name];
    const others = (context?.arguments ?? {}) as Record<string, string>;
    const values = provider ? await provider({ value: argument.value, arguments: others }) : [];
    if (!Array.isArray(values) || values.some((v) => typeof v !== "string")) {
      this.options.logger.error("completion provider returned something other than string[]", { argument: argument.name });
      throw new McpError(ErrorCode.InternalError, "Internal error");
    }
    return {
      resultType: "complete",
      completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 },
    };
  }
}

/** "elicitation", "elicitation.url", "sampling.tools", ... for a ClientCapabilities object. */
function capabilityNames(caps: ClientCapabilities): string[] {
  return Object.entries(caps).flatMap(([key, value]) => {
    const inner = value && typeof value === "object" ? Object.keys(value) : [];
    return inner.length === 0 ? [key] : inner.map((k) => `${key}.${k}`);
  });
}

function isInputRequired(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && (value as JsonObject).resultType === "input_required";
}

/** Malformed retry envelope: refused before the component runs. */
function checkRetryEnvelope(request: DispatchRequest): void {
  const { requestState, inputResponses } = request;
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new McpError(ErrorCode.InvalidParams, "Invalid retry envelope: requestState must be a string");
  }
  if (inputResponses !== undefined) {
    if (!isPlainObject(inputResponses)) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid retry envelope: inputResponses must be an object");
    }
    for (const [key, entry] of Object.entries(inputResponses)) {
      if (!isPlainObject(entry)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid retry envelope: inputResponses.${key} must be an object`);
      }
    }
  }
}

function makeContext(request: DispatchRequest): RequestContext {
  const params = frozenCopy(request.params);
  return Object.freeze({
    method: request.method,
    requestMethod: request.method,
    requestParams: params,
    principal: request.principal,
    clientCapabilities: frozenCopy(request.clientCapabilities ?? {}),
    protocolVersion: request.protocolVersion,
    inputResponses: request.inputResponses === undefined ? undefined : frozenCopy(request.inputResponses as Record<string, unknown>),
    requestState: request.requestState as string | undefined,
    progress: request.progress ?? NO_PROGRESS,
    log: request.log ?? NO_LOG,
    signal: request.signal ?? NEVER_ABORTED,
  });
}

export type { LogLevel };
