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

// Registry
export { RegistrationError } from "./registry/component-registry";

// Server
export { McpApp, type McpAppOptions, type ConnectionOptions } from "./server/mcp-app";
export type { ListenOptions, HttpListener, Authenticator } from "./server/http-listener";
