import "reflect-metadata";

// Decorators
export { Tool, type ToolOptions } from "./decorators/tool";
export { Resource, type ResourceOptions, type ResourceAnnotations } from "./decorators/resource";
export { Prompt, type PromptOptions } from "./decorators/prompt";
export { Arg } from "./decorators/arg";
export { Ctx } from "./decorators/ctx";
export {
  Elicit,
  type ElicitOptions,
  type ElicitOutcome,
  type ElicitedAnswers,
  type QuestionSource,
  type ComputedQuestion,
  type UrlQuestion,
} from "./decorators/elicit";
export { Complete, type CompletionProvider, type CompletionRequest } from "./decorators/complete";
export { UseMiddleware } from "./decorators/use-middleware";
export type { DtoClass, JsonSchema, Icon, ToolAnnotations, CacheScope } from "./decorators/component-options";

// Dispatch
export { McpError, ErrorCode, isMcpError } from "./dispatch/errors";
export { Result, type ToolResult, type ContentBlock, type ResourceContents, type ResourceLinkFields, type ContentAnnotations } from "./dispatch/result";
export type { RequestContext, ProgressReporter, RequestLogger, LogLevel, StateBinding } from "./dispatch/request-context";
export type { Middleware, Next, ComponentRef } from "./dispatch/middleware";
export type { ResultValidator, ListCacheHint, DispatchRequest } from "./dispatch/dispatcher";
export { type AppLogger, APP_LOGGER, StderrLogger, SilentLogger, MemoryLogger } from "./dispatch/app-logger";
export type { ClientCapabilities, InputRequest, InputRequiredResult, ElicitationSchema, JsonObject } from "./dispatch/wire-types";

// Elicitation (the imperative core)
export { Elicitation } from "./elicitation/elicitation";
export { Sampling, INVALID_SAMPLING_RESPONSE, type SamplingResponse, type SamplingAnswered, type CreateMessageParams, type CreateMessageRequest, type CreateMessageResult, type SamplingMessage } from "./elicitation/sampling";
export { Roots, INVALID_ROOTS_RESPONSE, type RootsResponse, type RootsAnswered, type ListRootsRequest, type ListRootsResult, type Root } from "./elicitation/roots";
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
export type { FormElicitRequest, UrlElicitRequest, ElicitRequest } from "./elicitation/elicit-request";
export type { FormSchema, FormPropertySchema, ElicitationContent, EnumOption } from "./elicitation/form-schema";
export { ElicitationSchemaError } from "./elicitation/elicitation-schema-error";
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
export type { JsonValue } from "./state/canonical-json";

// Registry
export { RegistrationError } from "./registry/component-registry";

// Server
export { McpApp, type McpAppOptions, type ConnectionOptions } from "./server/mcp-app";
export type { ListenOptions, HttpListener, Authenticator } from "./server/http-listener";
export { ChangeNotifier } from "./server/change-notifier";
