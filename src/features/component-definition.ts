import type { ComponentRef, Middleware } from "../protocol/middleware";
import type { RequestContext } from "../protocol/request-context";
import type { MaybePromise } from "../protocol/maybe-async";
import type { JsonObject } from "../protocol/wire-types";
import type { FieldViolation } from "../schema/dto-validator";
import type { CompletionProvider } from "../decorators/complete";
import type { ComputedQuestion, ElicitOptions, QuestionSource } from "../decorators/elicit";
import type { DtoClass } from "../protocol/dto-class";
import type { InputRequest } from "../protocol/input-request";
import type { RateLimit } from "../protocol/rate-limit";

/** How each handler parameter is filled, in positional order. */
export type ParamPlan =
  { kind: "arguments" } | { kind: "argument"; name: string } | { kind: "ctx" } | { kind: "elicit"; key: string } | { kind: "operationId" };

/** One question as asked this round: the wire input request and, for a DTO form, the DTO to validate with. */
export interface BuiltQuestion {
  request: InputRequest;
  dto?: DtoClass;
  mode: "form" | "url";
}

/** A declared question, checked at bootstrap. */
export interface ElicitSpec {
  key: string;
  /** Static source, or an arrow function computing it from earlier answers. */
  source: QuestionSource | ComputedQuestion;
  computed: boolean;
  options: ElicitOptions;
  after: readonly string[];
  /** A static question with a static message: built once at bootstrap, the same every round. */
  built?: BuiltQuestion;
  /** A static question's digest (the message is not part of it): computed once at bootstrap. */
  digest?: string;
}

/** Binds raw `arguments` to what the method receives; built once at bootstrap. Synchronous when it can be. */
export type ArgumentBinder = (raw: unknown) => MaybePromise<{ ok: true; value: unknown } | { ok: false; violations: FieldViolation[] }>;

/** Validates a final structured result against the output schema; returns violations. Synchronous when it can be. */
export type OutputCheck = (structured: unknown) => MaybePromise<FieldViolation[]>;

/**
 * The arguments of one round: `whole` feeds an `@Arg()` parameter, `named` feeds `@Arg("name")`;
 * or an outcome that ends the round before any question is asked (a tool's isError result).
 */
export type BoundArguments = { ok: true; whole: unknown; named: Readonly<Record<string, unknown>> } | { ok: false; outcome: unknown };

/** Where completion providers hang: `completion/complete` finds them by `ref.type` and key. */
export interface CompletionSource {
  /** "ref/prompt" or "ref/resource". */
  readonly refType: string;
  /** The prompt name or the resource template. */
  readonly key: string;
  readonly providers: Readonly<Record<string, CompletionProvider>>;
}

/** A feature the app must list for a component to be served as declared, and how to add it. */
export interface RequiredFeature {
  /** The feature's `FeatureModule.name`. */
  readonly name: string;
  /** Ends the registration error when no such feature is listed: what the app must add. */
  readonly fix: string;
}

/** An unexpected failure as the client may see it; the details went to the app's logger under `errorId`. */
export interface FailureReport {
  readonly errorId: string;
  /** One sentence for the client: generic and naming the error id, or the error's own message when the app exposes details. */
  readonly text: string;
}

/**
 * One compiled component: what the runner needs to execute it for a request, whatever its
 * feature. Built once at bootstrap by its feature; the hot path only reads it. The four functions
 * are the feature's own rules (what a binding failure, a declined question, a return value and a
 * thrown error become), so the runner holds no per-kind switch.
 */
export interface ComponentDefinition {
  readonly ref: ComponentRef;
  /** "Class.method", for messages. */
  readonly where: string;
  readonly token: Function;
  readonly methodName: string;
  /**
   * The object whose `methodName` the runner calls, for a component a feature serves from its own
   * data (a skill's files); absent, the container's instance of `token` (a decorated class).
   */
  readonly instance?: object;
  readonly params: readonly ParamPlan[];
  readonly middleware: readonly Middleware[];
  /** Questions in an order where every `after` dependency comes first. */
  readonly elicits: readonly ElicitSpec[];
  /**
   * The framework carries this component's rounds in sealed state (it has `@Elicit` or
   * `@OperationId` parameters): its answers, its operation id, and whatever input the method
   * asks for itself.
   */
  readonly carriedFlow: boolean;
  /** The descriptor as listed (wire JSON, built once). */
  readonly descriptor: JsonObject;
  readonly completion?: CompletionSource;
  /**
   * Declared for other features to serve, each of which the app must list (a tool's `task` option
   * needs the tasks feature, its `view` the apps feature).
   */
  readonly requiredFeatures?: readonly RequiredFeature[];
  /** This round's arguments; `matched` holds what routing extracted (template variables). Synchronous when it can be. */
  bind(ctx: RequestContext, matched: Readonly<Record<string, string>>): MaybePromise<BoundArguments>;
  /** A question declined or cancelled under `onDecline: "end"`: the outcome to return, or throw. */
  declined(key: string, action: "decline" | "cancel"): unknown;
  /** A final value as its complete wire result; throws `OutputSchemaViolation` for a server bug. Synchronous when it can be. */
  shape(value: unknown, ctx: RequestContext): MaybePromise<JsonObject>;
  /** OAuth scopes a caller needs, all of them (the class's and method's `@Scopes` and the `scopes` option). */
  readonly scopes: readonly string[];
  /** Milliseconds the component may take per round (its `timeoutMs` option); the app's default when absent. */
  readonly timeoutMs?: number;
  /** Its `rateLimit` option, checked: a limit, `false` (exempt), or absent (the app's default). */
  readonly rateLimit?: RateLimit | false;
  /**
   * A thrown error that is not an `McpError`: the result to send instead, or undefined for -32603.
   * `failure` is what the client may be told about an unexpected one (generic, with its error id,
   * unless the app exposes error details).
   */
  recover(error: unknown, failure: FailureReport): JsonObject | undefined;
}
