import "reflect-metadata";

// Decorators
export { Tool, type ToolOptions } from "./decorators/tool";
export { Resource, type ResourceOptions } from "./decorators/resource";
export { Prompt, type PromptOptions } from "./decorators/prompt";
export { Arg } from "./decorators/arg";
export { Ctx } from "./decorators/ctx";
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
export type { DtoClass } from "./protocol/dto-class";

// Dispatch
export { McpError, ErrorCode, isMcpError } from "./protocol/errors";
export { Result } from "./dispatch/result";
export type { ToolResult, ContentBlock, ResourceContents, ResourceLinkFields, Annotations } from "./protocol/content";
export type { RequestContext, ProgressReporter, RequestLogger, LogLevel, StateBinding } from "./protocol/request-context";
export type { Middleware, Next, ComponentRef } from "./protocol/middleware";
export type { ResultValidator, ListCacheHint, DispatchRequest } from "./dispatch/dispatcher";
export { type AppLogger, APP_LOGGER, StderrLogger, SilentLogger, MemoryLogger } from "./protocol/app-logger";
export type { ClientCapabilities, InputRequest, InputRequiredResult, JsonObject, CacheScope } from "./protocol/wire-types";

// Elicitation (the imperative core)
export { Elicitation } from "./elicitation/elicitation";
export { Sampling, INVALID_SAMPLING_RESPONSE, type SamplingResponse, type SamplingAnswered } from "./elicitation/sampling";
export type { CreateMessageParams, CreateMessageRequest, CreateMessageResult, SamplingMessage } from "./protocol/sampling-request";
export { Roots, INVALID_ROOTS_RESPONSE, type RootsResponse, type RootsAnswered } from "./elicitation/roots";
export type { ListRootsRequest, ListRootsResult, Root } from "./protocol/roots-request";
export {
  INVALID_ELICITATION_RESPONSE,
  type ElicitationResponse,
  type FormElicitationResponse,
  type UrlElicitationResponse,
  type FormAccepted,
  type UrlAccepted,
  type ElicitationDeclined,
  type ElicitationCancelled,
} from "./elicitation/response";
export type { InputMissing } from "./elicitation/input-response-entry";
export type { FormElicitRequest, UrlElicitRequest, ElicitRequest, ElicitResult } from "./protocol/elicit-request";
export type { FormSchema, FormPropertySchema, ElicitationContent, EnumOption } from "./protocol/form-schema";
export { ElicitationSchemaError } from "./schema/elicitation-schema-error";
export { InputRequestError } from "./elicitation/input-request-error";
export { requiredCapabilities, missingCapabilities, isAllowedBy } from "./elicitation/capabilities";
export { JSONSchema } from "class-validator-jsonschema";

// State
export {
  StateSealer,
  INVALID_STATE_MESSAGE,
  STATE_TTL_DEFAULT_SECONDS,
  STATE_TTL_MAX_SECONDS,
  STATE_TOKEN_MAX_BYTES,
  type StateSealerOptions,
  type StateSealOptions,
  type StateOpenOptions,
  type StateRejectReason,
} from "./state/state-sealer";
export { createStateSealer, type StateOptions } from "./state/create-state-sealer";
export type { StateKey } from "./state/key-ring";
export type { JsonValue } from "./protocol/canonical-json";

// Registry
export { RegistrationError } from "./registry/component-registry";

// Server
export { McpApp, type McpAppOptions, type ConnectionOptions } from "./server/mcp-app";
export type { ListenOptions, HttpListener, Authenticator } from "./server/http-listener";
export { ChangeNotifier } from "./server/change-notifier";
