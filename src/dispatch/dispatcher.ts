import type { DependencyContainer } from "tsyringe";
import type { BoundArguments, ComponentDefinition } from "../features/component-definition";
import type { ComponentRunner, ExecutionStrategy, Invocation, RecordedInvocation } from "../features/component-runner";
import { isReask } from "../features/result";
import type { FeatureTable } from "../features/feature-table";
import { InsufficientScopeError } from "../protocol/insufficient-scope-error";
import type { AppLogger } from "../protocol/app-logger";
import { ErrorCode, McpError } from "../protocol/errors";
import { jsonHazard } from "../protocol/json-hazard";
import { andThen, isThenable, throwsAsRejection, type MaybePromise } from "../protocol/maybe-async";
import type { InboundRequest } from "../protocol/inbound-request";
import type { Middleware, ResultValidator } from "../protocol/middleware";
import type { RequestContext } from "../protocol/request-context";
import type { JsonObject } from "../protocol/wire-types";
import type { StateSealer } from "../state/state-sealer";
import { admitInputRequired, declaredBy, isInputRequired, type Declared } from "./admission";
import type { CarriedState } from "./carried-state";
import { settleFailure } from "./component-failures";
import { RequestDeadline } from "./request-deadline";
import { checkRetryEnvelope, requestContextOf } from "./request-context-of";
import { FlowRounds, NO_VALUES } from "./flow-rounds";
import type { ReadyRound } from "./round-planner";
import type { RequestTelemetry } from "./request-telemetry";
import { traceIdOf } from "./trace-id-of";
import type { RateLimiter } from "./rate-limiter";

export interface DispatcherOptions {
  features: FeatureTable;
  container: DependencyContainer;
  sealer: StateSealer;
  logger: AppLogger;
  middleware?: readonly Middleware[];
  resultValidator?: ResultValidator;
  /** Milliseconds a component round may take when the component sets no `timeoutMs`. Default 60,000. */
  timeoutMs?: number;
  /** Development only: unexpected error messages reach the client. Default false. */
  exposeErrors?: boolean;
  /** Spans and metrics of every request (the app's `telemetry` option); none when absent. */
  telemetry?: RequestTelemetry;
  /** The app's rate limits, checked before every round of a component (tasks included). */
  rateLimiter?: RateLimiter;
}

/**
 * What one run of a component carries through its middleware to the invocation, besides the
 * context the middleware passed on (its round is planned after the middleware, see `PlannedRound`).
 */
interface ComponentRun {
  readonly def: ComponentDefinition;
  readonly request: InboundRequest;
  /** The request's own context. */
  readonly original: RequestContext;
  /** What the client declared on the request: what every question and input request is admitted against. */
  readonly declared: Declared;
  readonly matched: Readonly<Record<string, string>>;
  readonly strategy: ExecutionStrategy | undefined;
  readonly handOver: ((result: JsonObject) => void) | undefined;
}
type ComponentInstance = Record<string, (...args: unknown[]) => unknown>;

const NO_MATCH: Readonly<Record<string, string>> = Object.freeze({});

/** Default time a component round may take. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** The answers a resolved round carried, as the client gave them. */
function answersOf(state: CarriedState | undefined): RecordedInvocation["answers"] {
  return state === undefined ? {} : Object.fromEntries(Object.entries(state.answers).map(([key, pinned]) => [key, pinned.outcome]));
}

/**
 * Routes one MCP request through the feature table and runs components for the features.
 * Transport-agnostic: it knows nothing of the SDK, HTTP or stdio, and every transport's requests
 * pass through `handle`. Everything per request is a map lookup plus the component's own work;
 * schemas, validators and routes were built at bootstrap.
 */
export class Dispatcher implements ComponentRunner {
  private readonly flows: FlowRounds;
  private readonly chains = new WeakMap<ComponentDefinition, readonly Middleware[]>();

  constructor(private readonly options: DispatcherOptions) {
    this.flows = new FlowRounds(options.sealer, options.logger);
  }

  get features(): FeatureTable {
    return this.options.features;
  }

  /**
   * The request's result; every refusal is a rejection (never a synchronous throw). The one place
   * every transport's requests pass: telemetry and the logger's request scope wrap it here, and
   * only when the app has them. A method that selects a component
   * has it run here; one that answers by itself answers.
   */
  handle(request: InboundRequest): Promise<JsonObject> {
    const telemetry = this.options.telemetry;
    const scoped = this.options.logger.withScope !== undefined;
    if (telemetry === undefined) return scoped ? this.scoped(request, traceIdOf(request)) : this.answer(request);
    return telemetry.handle(request, (traceId) => (scoped ? this.scoped(request, traceId) : this.answer(request)));
  }

  /** `answer` with every log entry it makes carrying the request's id, trace id and principal. */
  private scoped(request: InboundRequest, traceId: string | undefined): Promise<JsonObject> {
    const scope = { requestId: request.requestId, traceId, principal: request.principal };
    return this.options.logger.withScope!(scope, () => this.answer(request));
  }

  private answer(request: InboundRequest): Promise<JsonObject> {
    const method = this.options.features.method(request.method);
    if (!method) return Promise.reject(new McpError(ErrorCode.MethodNotFound, "Method not found"));
    return Promise.resolve(
      throwsAsRejection(() => {
        if (method.select === undefined) return method.handle(request);
        const selected = method.select(request);
        return this.run(selected.component, request, selected.matched);
      }),
    );
  }

  async run(def: ComponentDefinition, request: InboundRequest, matched: Readonly<Record<string, string>> = NO_MATCH): Promise<JsonObject> {
    // Components never run inside the caller's own call of handle(): whatever the caller does
    // right after it comes first, as it always has (the round below may otherwise be synchronous).
    await undefined;
    // Authorization first, on every round: a caller without the scopes learns nothing more.
    if (!this.options.features.scopes.allows(def.scopes, request.authorization)) throw new InsufficientScopeError(def.scopes);
    checkRetryEnvelope(request);
    // Before anything of the component runs (middleware, rounds, a task's creation): a refused
    // call costs one bucket lookup. The per-instance store answers synchronously (no promise).
    const limited = this.options.rateLimiter?.admit(def, request.principal);
    if (limited !== undefined) await limited;
    // The round's own signal: aborts on cancellation or at the time limit, never after it returned.
    // The transport's signal is read lazily: a transport may make it only when something reads it.
    const deadline = new RequestDeadline(request.cancellation, def.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const ctx = requestContextOf(request, deadline);
    const strategy = this.options.features.strategyFor(def);
    strategy?.admit?.(def, ctx);
    let handedOver: JsonObject | undefined;
    const handOver = strategy && ((result: JsonObject) => (handedOver = result));
    const chain = this.chainOf(def);
    const declared = declaredBy(request, ctx.clientCapabilities);
    const round: ComponentRun = { def, request, original: ctx, declared, matched, strategy, handOver };
    let outcome: unknown;
    try {
      // A round that settled synchronously (a binding the fast path accepted, a handler that
      // returned its value) had no time to overrun: the time limit races only pending work.
      const work = chain.length === 0 ? this.invoke(round, ctx) : this.through(chain, 0, round, ctx);
      outcome = isThenable(work) ? await deadline.race(Promise.resolve(work)) : work;
    } catch (error) {
      return this.failure(def, ctx, error);
    } finally {
      deadline.release();
    }
    // A strategy's own result (a task) goes out as it is.
    if (handedOver !== undefined && outcome === handedOver) return handedOver;
    // Admission runs on what came back, with the ORIGINAL request's capabilities.
    if (isInputRequired(outcome)) {
      const mayCarryIt = this.options.features.method(request.method)?.inputRequired === true;
      return admitInputRequired(outcome, request, mayCarryIt, this.options.logger);
    }
    return this.finish(def, ctx, outcome);
  }

  /** Runs the middleware from `index` on, then the component; a middleware's `next()` always gets a promise. */
  private through(chain: readonly Middleware[], index: number, round: ComponentRun, current: RequestContext): Promise<unknown> {
    if (index === chain.length) return Promise.resolve(throwsAsRejection(() => this.invoke(round, current)));
    let called = false;
    const next = (replacement?: RequestContext) => {
      if (called) throw new Error("next() called twice by one middleware");
      called = true;
      return this.through(chain, index + 1, round, replacement ?? current);
    };
    // index < chain.length: the end of the chain was handled above.
    return Promise.resolve(chain[index]!(current, next, round.def.ref));
  }

  /** The app's middleware, then the component's: joined once per component. */
  private chainOf(def: ComponentDefinition): readonly Middleware[] {
    let chain = this.chains.get(def);
    if (chain === undefined) this.chains.set(def, (chain = [...(this.options.middleware ?? []), ...def.middleware]));
    return chain;
  }

  /**
   * Binds, resolves the `@Elicit` round, then calls the method (or hands it to a strategy). `ctx`
   * is what the middleware passed on. Synchronous as long as every step is (see `maybe-async`):
   * a plain call of a method that returns its value makes no promise here.
   */
  private invoke(round: ComponentRun, ctx: RequestContext): MaybePromise<unknown> {
    const { def, original, declared, matched } = round;
    return andThen(def.bind(ctx, matched), (bound) => {
      if (!bound.ok) return bound.outcome;
      if (!def.carriedFlow) return this.proceed(round, ctx, bound, { kind: "ready", values: NO_VALUES, ctx });
      return andThen(this.flows.enter(def, ctx, declared), (planned) => {
        const telemetry = this.options.telemetry;
        const number = planned.kind === "ready" ? planned.state?.round : planned.round;
        if (telemetry !== undefined && number !== undefined) telemetry.round(round.request, number, original.requestState !== undefined);
        return planned.kind === "ready" ? this.proceed(round, ctx, bound, planned) : this.flows.unready(def, planned);
      });
    });
  }

  /** Calls the bound method (or hands it to a strategy), then ends the round of a carried flow. */
  private proceed(
    round: ComponentRun,
    ctx: RequestContext,
    bound: Extract<BoundArguments, { ok: true }>,
    planned: ReadyRound,
  ): MaybePromise<unknown> {
    const { def, strategy } = round;
    if (strategy) return this.delegate(round, ctx, bound, planned);
    return andThen(this.call(def, this.instanceOf(def), bound, planned.values, planned.state?.operationId, planned.ctx), (returned) =>
      this.leave(round, ctx, planned, returned),
    );
  }

  /** What the method returned, carried on when its flow needs it. */
  private leave(round: ComponentRun, ctx: RequestContext, planned: ReadyRound, returned: unknown): MaybePromise<unknown> {
    const { def, declared } = round;
    // A method without a carried flow has nothing to carry, but may still misuse Result.reask().
    return def.carriedFlow || isReask(returned) ? this.flows.leave(def, ctx, planned, returned, declared) : returned;
  }

  /** The round run by the component's strategy (a task, say): recorded, executed, maybe handed over. */
  private async delegate(
    round: ComponentRun,
    ctx: RequestContext,
    bound: Extract<BoundArguments, { ok: true }>,
    planned: ReadyRound,
  ): Promise<unknown> {
    const { def, request, original, strategy, handOver } = round;
    const operationId = planned.state?.operationId;
    const recorded: RecordedInvocation = {
      arguments: ctx.requestParams.arguments,
      answers: answersOf(planned.state),
      ...(operationId !== undefined && { operationId }),
    };
    const outcome = await strategy!.execute(
      this.invocation(def, bound, planned.values, operationId, planned.ctx, original, recorded, request),
    );
    if (outcome.kind === "handover") {
      handOver!(outcome.result);
      return outcome.result;
    }
    return this.leave(round, ctx, planned, outcome.value);
  }

  async restore(def: ComponentDefinition, recorded: RecordedInvocation, ctx: RequestContext): Promise<Invocation> {
    // Bound and planned as a round that carries the recorded answers and no state.
    const round: RequestContext = {
      ...ctx,
      requestParams: { ...ctx.requestParams, arguments: recorded.arguments },
      inputResponses: recorded.answers,
      requestState: undefined,
    };
    const bound = await def.bind(round, {});
    if (!bound.ok) throw new Error(`${def.where}: the recorded arguments no longer bind`);
    const planned = await this.flows.enter(def, round);
    if (planned.kind !== "ready") throw new Error(`${def.where}: the recorded answers no longer resolve its @Elicit parameters`);
    // A re-run keeps the flow's operation id, so its one-time effects stay keyed as the first run's.
    return this.invocation(def, bound, planned.values, recorded.operationId ?? planned.state?.operationId, ctx, ctx, recorded);
  }

  /** The method with its parameters filled: what a strategy receives, or what is called inline. */
  private invocation(
    def: ComponentDefinition,
    bound: Extract<BoundArguments, { ok: true }>,
    values: ReadonlyMap<string, unknown>,
    operationId: string | undefined,
    ctx: RequestContext,
    original: RequestContext,
    recorded: RecordedInvocation,
    request?: InboundRequest,
  ): Invocation {
    const instance = this.instanceOf(def);
    const telemetry = this.options.telemetry;
    const call = async (seen: RequestContext) => this.call(def, instance, bound, values, operationId, seen);
    return {
      component: def,
      ctx,
      clientCapabilities: original.clientCapabilities,
      recorded,
      run: async (replacement) => {
        // A task's attempt (its context names the task) gets a span of its own, linked to the request.
        const taskId = (replacement as { taskId?: unknown } | undefined)?.taskId;
        if (telemetry === undefined || typeof taskId !== "string") return call(replacement ?? ctx);
        return telemetry.task(request, def, taskId, () => call(replacement!));
      },
      finish: async (value) => this.finish(def, original, value),
    };
  }

  private instanceOf(def: ComponentDefinition): ComponentInstance {
    if (def.instance !== undefined) return def.instance as ComponentInstance;
    return this.options.container.resolve(def.token as never) as ComponentInstance;
  }

  /** Calls the component's method with each parameter filled from its source; `seen` is what `@Ctx()` receives. */
  private call(
    def: ComponentDefinition,
    instance: ComponentInstance,
    bound: Extract<BoundArguments, { ok: true }>,
    values: ReadonlyMap<string, unknown>,
    operationId: string | undefined,
    seen: RequestContext,
  ): unknown {
    const parameters = def.params.map((p) => {
      switch (p.kind) {
        case "arguments":
          return bound.whole;
        case "argument":
          return bound.named[p.name];
        case "ctx":
          return seen;
        case "elicit":
          return values.get(p.key);
        case "operationId":
          return operationId;
      }
    });
    // The definition was compiled from a decorator on this method, so the instance has it.
    return instance[def.methodName]!(...parameters);
  }

  /**
   * Shapes a final value and runs the app's result validator on it; a failure at any step is
   * settled (`failure`). Synchronous when shaping is and the validator (if any) returns no promise.
   */
  private finish(def: ComponentDefinition, ctx: RequestContext, value: unknown): MaybePromise<JsonObject> {
    const failed = (error: unknown) => this.failure(def, ctx, error);
    let settled: MaybePromise<JsonObject>;
    try {
      settled = andThen(def.shape(value, ctx), (result) => {
        const hazard = jsonHazard(result);
        if (hazard !== undefined) throw new Error(`${def.where} returned a result with ${hazard}, which JSON cannot carry`);
        const validator = this.options.resultValidator;
        return validator === undefined ? result : andThen(validator(result, { ctx, component: def.ref }), () => result);
      });
    } catch (error) {
      return failed(error);
    }
    return isThenable(settled) ? Promise.resolve(settled).catch(failed) : settled;
  }

  /** Typed errors reach the wire; anything else is settled by `settleFailure` (error id, log, generic answer). */
  private failure(def: ComponentDefinition, ctx: RequestContext, error: unknown): JsonObject {
    return settleFailure(def, ctx, error, { logger: this.options.logger, exposeErrors: this.options.exposeErrors === true });
  }
}
