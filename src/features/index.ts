// roundtrip-mcp/features: what a feature author writes against. A feature is a `FeatureModule`
// an app lists in `McpAppOptions.features`; it compiles declarations into components, answers or
// selects for its methods, and may take over the invocation of the components it claims.
export type {
  FeatureModule,
  FeatureContext,
  CompiledFeature,
  FeatureMethod,
  AnsweringMethod,
  SelectingMethod,
  Selection,
  MethodSpec,
  McpNameParam,
  MethodHooks,
  HeaderLookup,
  ServingFacts,
  ChangeAnnouncer,
  ResourceSource,
  LinkContext,
} from "./feature-module";
export type { ComponentRunner, RecordedInvocation, Invocation, ExecutionOutcome, ExecutionStrategy } from "./component-runner";
export type {
  ComponentDefinition,
  ParamPlan,
  BuiltQuestion,
  ArgumentBinder,
  OutputCheck,
  ElicitSpec,
  BoundArguments,
  CompletionSource,
  RequiredFeature,
  FailureReport,
} from "./component-definition";
export type { ComponentCompiler, DeclaredComponent, DtoUse, CommonFields, CommonPlan } from "./component-compiler";
export type { Era, InboundRequest } from "../protocol/inbound-request";
export type { Cancellation } from "../protocol/cancellation";
export type { ComponentDeclaration, ParamDeclaration } from "../decorators/component-declaration";
export type { ProgressReporter, RequestLogger, RequestContext } from "../protocol/request-context";
export type { ClientCapabilities, JsonObject, ListCacheHint } from "../protocol/wire-types";
export type { AppLogger } from "../protocol/app-logger";
export type { ComponentRef, Middleware } from "../protocol/middleware";
export type { MaybePromise } from "../protocol/maybe-async";
export type { FieldViolation } from "../schema/dto-validator";
export type { CompletionProvider, CompletionRequest } from "../decorators/complete";
export type { ComputedQuestion, ElicitOptions, QuestionSource, ElicitedAnswers, UrlQuestion } from "../decorators/elicit";
export type { ToolOptions, TaskSupport, TaskToolOptions } from "../decorators/tool";
export type { ViewOptions, ViewCsp, ViewPermission, ViewHtml, ToolVisibility } from "../decorators/view";
export type { DeclarationFeature } from "../decorators/component-declaration";
export type { CommonComponentOptions, Icon, ToolAnnotations } from "../decorators/component-options";
export type { Annotations } from "../protocol/content";
export type { ElicitRequest, FormElicitRequest, UrlElicitRequest } from "../protocol/elicit-request";
export type {
  CreateMessageRequest,
  CreateMessageParams,
  SamplingMessage,
  SamplingRole,
  SamplingContent,
  SamplingContentBlock,
} from "../protocol/sampling-request";
export type { ListRootsRequest } from "../protocol/roots-request";
export type {
  ElicitationContent,
  FormSchema,
  FormPropertySchema,
  StringPropertySchema,
  NumberPropertySchema,
  BooleanPropertySchema,
  SingleSelectPropertySchema,
  MultiSelectPropertySchema,
  FormFormat,
  EnumOption,
} from "../protocol/form-schema";
export type { RetryPolicy } from "../stores/task-record";
export type { PromptOptions } from "../decorators/prompt";
export type { ResourceOptions } from "../decorators/resource";
export type { DtoClass } from "../protocol/dto-class";
export type { InputRequest } from "../protocol/input-request";
export type { ElicitResult } from "../protocol/elicit-request";
export type { Next } from "../protocol/middleware";
export type { LogLevel, StateBinding, InputResponseSource } from "../protocol/request-context";
export type { CacheScope } from "../protocol/wire-types";
