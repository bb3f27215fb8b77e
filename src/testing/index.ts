// roundtrip-mcp/testing: drive MCP 2026-07-28 servers round by round from jest tests, in-process,
// over stdio and over HTTP. Speaks JSON-RPC itself; imports no MCP SDK.
// It builds apps (tsyringe, decorator metadata), so it loads reflect-metadata first, as the main
// entry does: a test that imports only roundtrip-mcp/testing works.
import "reflect-metadata";

// Clients
export { createTestClient, type CreateTestClientOptions } from "./create-test-client";
export { createStdioTestClient, type StdioTestClientOptions } from "./create-stdio-test-client";
export { createHttpTestClient, type HttpTestClientOptions } from "./create-http-test-client";
export { TestClient, TEST_CLIENT_INFO, type TestClientOptions, type RawOptions } from "./test-client";
export type { KitAppOptions } from "./kit-app";
export type { ListAllOptions, ListedPages } from "./list-pages";
export type { StdioServerCommand } from "./stdio-child-transport";
export type { BoundaryName, HttpRound, Round } from "./channel";

// Flows
export { Flow } from "./flow";
export type { FlowStatus, RoundSender, CallOptions, RunOptions, Answer, Answers, Script } from "./flow-options";
export { AskedInput, type AskedKind } from "./asked-input";

// MCP Apps views, as a host reads and calls them
export { VIEW_HOST_CAPABILITIES, viewLinkOf, readView, callAsView, type ToolViewLink, type ReadView } from "./views";

// Loggers for the app under test
export { MemoryLogger, SilentLogger, type MemoryLogEntry } from "./loggers";

// Answers and state helpers
export { accept, decline, cancel, modelReply, clientRoots, type ModelReplyOptions } from "./answers";
export { tamper, type TamperMode } from "./tamper";
export { createTestClock, TEST_CLOCK_START, type TestClock } from "./test-clock";

// Wire shapes
export { PROTOCOL_VERSION, META } from "./wire-messages";
export type {
  JsonRpcId,
  JsonRpcRequest,
  RequestParams,
  JsonRpcNotification,
  JsonRpcResponse,
  JsonRpcErrorObject,
  WireResult,
  WireInputRequest,
  InputResponse,
  ReadResourceResult,
  PromptMessage,
  ProgressParams,
  LogMessageParams,
  ClientInfo,
} from "./wire-messages";

// MCP shapes the kit's signatures use, under the main entry's names (one name per concept)
export type { ToolResult, PromptResult, ContentBlock, ResourceContents } from "../protocol/content";
export type { InputRequest, InputRequiredResult } from "../protocol/input-request";
export type { ClientCapabilities, JsonObject, CacheScope } from "../protocol/wire-types";
export type { ElicitResult, UrlElicitRequest } from "../protocol/elicit-request";
export type { ElicitationContent, FormSchema } from "../protocol/form-schema";
export type { CreateMessageRequest, CreateMessageResult, SamplingContent } from "../protocol/sampling-request";
export type { ListRootsResult, Root } from "../protocol/roots-request";
export type { LogLevel } from "../protocol/request-context";
