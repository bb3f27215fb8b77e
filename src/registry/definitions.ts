import type { Middleware, ComponentRef } from "../protocol/middleware";
import type { FieldViolation } from "../schema/dto-validator";
import type { JsonObject } from "../protocol/wire-types";
import type { CompletionProvider } from "../decorators/complete";
import type { ElicitOptions, QuestionSource, ComputedQuestion } from "../decorators/elicit";
import type { CacheScope } from "../protocol/wire-types";
import type { UriTemplate } from "./uri-template";

/** How each handler parameter is filled, in positional order. */
export type ParamPlan =
  | { kind: "arguments" }
  | { kind: "argument"; name: string }
  | { kind: "ctx" }
  | { kind: "elicit"; key: string };

/** A declared question, checked at bootstrap. */
export interface ElicitSpec {
  key: string;
  /** Static source, or an arrow function computing it from earlier answers. */
  source: QuestionSource | ComputedQuestion;
  computed: boolean;
  options: ElicitOptions;
  after: readonly string[];
}

/** Binds raw `arguments` to what the method receives; built once at bootstrap. */
export type ArgumentBinder = (raw: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; violations: FieldViolation[] }>;

/** Validates a final structured result against the output schema; returns violations. */
export type OutputCheck = (structured: unknown) => Promise<FieldViolation[]>;

interface Base {
  readonly ref: ComponentRef;
  /** "Class.method", for messages. */
  readonly where: string;
  readonly token: Function;
  readonly methodName: string;
  readonly params: readonly ParamPlan[];
  readonly middleware: readonly Middleware[];
  /** Questions in an order where every `after` dependency comes first. */
  readonly elicits: readonly ElicitSpec[];
  /** The descriptor as listed (wire JSON, built once). */
  readonly descriptor: JsonObject;
}

export interface ToolDefinition extends Base {
  readonly kind: "tool";
  readonly name: string;
  readonly bindArguments: ArgumentBinder;
  readonly checkOutput?: OutputCheck;
  /** Properties of inputSchema carrying `x-mcp-header`, for HTTP header validation. */
  readonly headerParams: readonly { property: string; header: string; type: "string" | "integer" | "boolean" }[];
}

export interface ResourceDefinition extends Base {
  readonly kind: "resource";
  readonly uri?: string;
  readonly template?: UriTemplate;
  readonly mimeType?: string;
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
  readonly completions: Readonly<Record<string, CompletionProvider>>;
}

export interface PromptDefinition extends Base {
  readonly kind: "prompt";
  readonly name: string;
  readonly bindArguments: ArgumentBinder;
  readonly requiredArguments: readonly string[];
  readonly completions: Readonly<Record<string, CompletionProvider>>;
}

export type ComponentDefinition = ToolDefinition | ResourceDefinition | PromptDefinition;
