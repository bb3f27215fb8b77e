import "reflect-metadata";

// Decorators
export { Tool, type ToolOptions, type TaskSupport, type TaskToolOptions } from "./decorators/tool";
export { Resource, type ResourceOptions } from "./decorators/resource";
export { Prompt, type PromptOptions } from "./decorators/prompt";
export { Arg } from "./decorators/arg";
export { Ctx } from "./decorators/ctx";
export { OperationId } from "./decorators/operation-id";
export {
  Elicit,
  type ElicitOptions,
  type ElicitedAnswers,
  type QuestionSource,
  type ComputedQuestion,
  type UrlQuestion,
} from "./decorators/elicit";
export { Complete, type CompletionProvider, type CompletionRequest } from "./decorators/complete";
export { UseMiddleware } from "./decorators/use-middleware";
export type { Icon, ToolAnnotations } from "./decorators/component-options";
export { JSONSchema } from "class-validator-jsonschema";

// Protocol: errors, request context, middleware, wire shapes
export { McpError, ErrorCode, isMcpError } from "./protocol/errors";
export type {
  RequestContext,
  ProgressReporter,
  RequestLogger,
  LogLevel,
  StateBinding,
  InputResponseSource,
} from "./protocol/request-context";
export type { Middleware, Next, ComponentRef, ResultValidator } from "./protocol/middleware";
export { type AppLogger, type AppLogLevel, APP_LOGGER, StderrLogger } from "./protocol/app-logger";
export type { DtoClass } from "./protocol/dto-class";
export type { JsonValue } from "./protocol/canonical-json";
export type { ClientCapabilities, JsonObject, CacheScope, ListCacheHint } from "./protocol/wire-types";
export type { InputRequest, InputRequiredResult } from "./protocol/input-request";
export type {
  ToolResult,
  ContentBlock,
  ResourceContents,
  ResourceLinkFields,
  Annotations,
  PromptMessage,
  PromptResult,
} from "./protocol/content";
export type {
  FormSchema,
  FormPropertySchema,
  StringPropertySchema,
  NumberPropertySchema,
  BooleanPropertySchema,
  SingleSelectPropertySchema,
  MultiSelectPropertySchema,
  FormFormat,
  ElicitationContent,
  EnumOption,
} from "./protocol/form-schema";
export type { FormElicitRequest, UrlElicitRequest, ElicitRequest, ElicitResult } from "./protocol/elicit-request";
export type {
  CreateMessageParams,
  CreateMessageRequest,
  CreateMessageResult,
  SamplingMessage,
  SamplingRole,
  SamplingContent,
  SamplingContentBlock,
} from "./protocol/sampling-request";
export type { ListRootsRequest, ListRootsResult, Root } from "./protocol/roots-request";

// Elicitation (the imperative core)
export { Elicitation } from "./elicitation/elicitation";
export { Sampling, INVALID_SAMPLING_RESPONSE, type SamplingResponse } from "./elicitation/sampling";
export { Roots, INVALID_ROOTS_RESPONSE, type RootsResponse } from "./elicitation/roots";
export {
  INVALID_ELICITATION_RESPONSE,
  type ElicitationResponse,
  type FormElicitationResponse,
  type UrlElicitationResponse,
} from "./elicitation/response";
export type { InputMissing } from "./elicitation/input-response-entry";
export { InputRequestError } from "./elicitation/input-request-error";
export { requiredCapabilities, missingCapabilities, isAllowedBy } from "./elicitation/capabilities";
export { ElicitationSchemaError, type ElicitationSchemaErrorDetails } from "./schema/elicitation-schema-error";

// Results
export { Result, type ReaskResult } from "./features/result";
export { ToolError } from "./features/tool-error";
export { RegistrationError } from "./features/registration-error";
export type { FeatureModule } from "./features/feature-module";

// Tasks (SEP-2663): the feature, what a task tool's method receives, the stores
export { tasks } from "./features/tasks/tasks-feature";
export type { TasksOptions } from "./features/tasks/tasks-options";
export { IDEMPOTENCY_KEY_META } from "./features/tasks/task-runtime";
export { TASK_EFFECT_META, type IgnoredAnswer } from "./features/tasks/task-methods";
export type { TaskContext, TaskAnswers } from "./features/tasks/task-context";
export { openTaskStore, type OpenTaskStoreOptions, DEFAULT_TASK_STORE_URL, defaultDataDir } from "./stores/open-task-store";
export { MemoryTaskStore, type MemoryTaskStoreOptions } from "./stores/memory-task-store";
export { SqliteTaskStore, type SqliteTaskStoreOptions } from "./stores/sqlite-task-store";
export { PostgresTaskStore, type PostgresTaskStoreOptions } from "./stores/postgres-task-store";
export type { PgPool } from "./stores/pg-client";
export type { TaskStoreOptions } from "./stores/row-task-store";
export { type TaskStore, type TaskLimits, type StoreLogger, DEFAULT_TASK_LIMITS } from "./stores/task-store";
export type {
  TaskStatus,
  RetryPolicy,
  TaskError,
  TaskProgress,
  TaskLease,
  LeaseRef,
  TaskRecord,
  ClaimedTask,
  CreateTaskInput,
  ProgressUpdate,
  TaskListener,
  TaskWatch,
} from "./stores/task-record";
export {
  TaskStoreError,
  type TaskStoreErrorCode,
  TaskNotFoundError,
  StaleLeaseError,
  TaskFinishedError,
  InputKeyReusedError,
  TaskLimitError,
  TaskExistsError,
  type TaskLimitName,
  TaskStoreUnavailableError,
  TaskStoreConfigError,
} from "./stores/task-store-errors";

// State
export { StateSealer } from "./state/state-sealer";
export {
  INVALID_STATE_MESSAGE,
  STATE_TTL_DEFAULT_SECONDS,
  STATE_TTL_MAX_SECONDS,
  STATE_TOKEN_MAX_BYTES,
  type StateOptions,
  type StateSealOptions,
  type StateRejectReason,
} from "./state/state-options";
export type { StateKey } from "./state/key-ring";
export { StateTooLargeError } from "./state/state-too-large-error";

// Server
export { McpApp } from "./server/mcp-app";
export type { McpAppOptions, ServeOptions, ServedConnection } from "./server/mcp-app-options";
export type { ListenOptions, HttpListener, Authenticator, CloseOptions } from "./server/http/listen-options";
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from "./server/checks/request-limits";
export type { SessionOptions } from "./server/http/sessions/session-options";
export { ChangeNotifier } from "./server/change-notifier";
