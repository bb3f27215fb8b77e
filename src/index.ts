import "reflect-metadata";

// Decorators
export { Tool, type ToolOptions, type TaskSupport, type TaskToolOptions } from "./decorators/tool";
export { Resource, type ResourceOptions } from "./decorators/resource";
export { Prompt, type PromptOptions } from "./decorators/prompt";
export { View, type ViewOptions, type ViewCsp, type ViewPermission, type ViewHtml, type ToolVisibility } from "./decorators/view";
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
export { Scopes } from "./decorators/scopes";
export type { Icon, ToolAnnotations, CommonComponentOptions } from "./decorators/component-options";
export { JSONSchema } from "class-validator-jsonschema";

// Protocol: errors, request context, middleware, wire shapes
export { McpError, ErrorCode, isMcpError } from "./protocol/errors";
export type { RateLimit, RateDecision } from "./protocol/rate-limit";
export { type RateLimitOptions, DEFAULT_RATE_STORE_TIMEOUT_MS } from "./dispatch/rate-limiter";
export { InsufficientScopeError } from "./protocol/insufficient-scope-error";
export type { Authorization } from "./protocol/authorization";

// OAuth 2.1 resource server (docs/authorization.md)
export { jwtVerifier, ASYMMETRIC_ALGORITHMS, type JwtVerifierOptions } from "./auth/jwt-verifier";
export { introspectionVerifier, type IntrospectionVerifierOptions } from "./auth/introspection-verifier";
export { InvalidTokenError, type TokenVerifier, type VerifyContext } from "./auth/token-verifier";
export type { AuthOptions } from "./auth/bearer-auth";
export { discoveryUrls } from "./auth/authorization-server-metadata";
export { protectedResourceMetadataUrl } from "./auth/protected-resource-metadata";
export type {
  RequestContext,
  ProgressReporter,
  RequestLogger,
  LogLevel,
  StateBinding,
  InputResponseSource,
} from "./protocol/request-context";
export type { Middleware, Next, ComponentRef, ResultValidator } from "./protocol/middleware";
export { type AppLogger, type AppLogLevel, type LogScope, APP_LOGGER, StderrLogger } from "./protocol/app-logger";
export { pinoLogger, type PinoLoggerOptions, type PinoLike } from "./protocol/pino-logger";
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
export { Sampling, INVALID_SAMPLING_RESPONSE } from "./elicitation/sampling";
export { Roots, INVALID_ROOTS_RESPONSE } from "./elicitation/roots";
export { INVALID_ELICITATION_RESPONSE } from "./elicitation/response";
export type { InputAnswer } from "./elicitation/input-response-entry";
export { InputRequestError } from "./elicitation/input-request-error";
export { requiredCapabilities, missingCapabilities, isAllowedBy } from "./elicitation/capabilities";
export { ElicitationSchemaError, type ElicitationSchemaErrorDetails } from "./schema/elicitation-schema-error";

// Results
export { Result, type ReaskResult } from "./features/result";
export { ToolError } from "./features/tool-error";
export { RegistrationError } from "./features/registration-error";
// What a feature author needs is the roundtrip-mcp/features entry point; an app only lists modules.
export type { FeatureModule } from "./features/feature-module";

// Tasks (SEP-2663): the feature and what a task tool's method receives. The stores, and what a
// store author needs, are the roundtrip-mcp/stores entry point.
export { tasks } from "./features/tasks/tasks-feature";
export type { TasksOptions } from "./features/tasks/tasks-options";
export type { PendingOutcomeLimits } from "./features/tasks/pending-outcomes";
export { IDEMPOTENCY_KEY_META, TASK_EFFECT_META } from "./features/tasks/task-meta-keys";
export type { IgnoredAnswer } from "./features/tasks/task-methods";
export type { TaskContext, TaskAnswers } from "./features/tasks/task-context";

// Skills (SEP-2640): a folder of skills and skills registered from code, served as skill:// resources.
export { skills, type SkillsFeature, type SkillChanges } from "./features/skills/skills-feature";
export type { SkillsOptions, SkillDefinition } from "./features/skills/skills-options";
// MCP Apps (SEP-1865): the feature, and what a method reads to shape its result for this caller.
export { apps } from "./features/apps/apps-feature";
export { rendersViews, UI_EXTENSION, VIEW_MIME_TYPE, LEGACY_RESOURCE_URI_META } from "./features/apps/ui-extension";
export { clientExtension } from "./protocol/client-extension";

// State
export { StateSealer } from "./state/state-sealer";
export {
  INVALID_STATE_MESSAGE,
  STATE_TTL_DEFAULT_SECONDS,
  STATE_TTL_MAX_SECONDS,
  STATE_TOKEN_MAX_BYTES,
  type StateOptions,
  type CommonStateOptions,
  type StateSealOptions,
  type StateRejectReason,
} from "./state/state-options";
export type { StateKey } from "./state/key-ring";
export { StateTooLargeError } from "./state/state-too-large-error";

// Server
export { McpApp } from "./server/mcp-app";
export type { McpAppOptions, ServeOptions, ServedConnection } from "./server/mcp-app-options";
export type { AppDescription, ComponentDescription, QuestionDescription } from "./features/component-description";
export {
  type TelemetryOptions,
  type TracerProviderLike,
  type MeterProviderLike,
  TELEMETRY_ATTRIBUTE_PREFIX,
} from "./dispatch/telemetry/telemetry-options";
export type { ListenOptions, HttpListener, Authenticator, CloseOptions } from "./server/http/listen-options";
export type { NodeHandler, NodeHandlerOptions } from "./server/http/node-mount";
export type { ServerCardHandler, ServerCardOptions } from "./server/http/server-card";
export type { AppInfo, ServerInfo, Repository, EnvironmentVariable } from "./server/request/app-info";
export {
  serverJson,
  ServerJsonError,
  SERVER_JSON_SCHEMA,
  type PackageJson,
  type ServerJsonOptions,
  type ServerJsonRemote,
} from "./server/server-json";
export type { HealthHandler, HealthOptions, HealthReport, ReadinessCheck } from "./server/http/health";
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from "./server/checks/request-limits";
export type { SessionOptions } from "./server/http/sessions/session-options";
export { ChangeNotifier, type ChangeTarget } from "./server/change-notifier";
