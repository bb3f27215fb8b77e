import type {
  fromJsonSchema,
  JSONRPCRequest,
  Result as SdkResult,
  Server,
  ServerContext,
  ServerCapabilities,
} from "@modelcontextprotocol/server";
import type { Dispatcher } from "../dispatch/dispatcher";
import type { FeatureMethod } from "../features/feature-module";
import type { FeatureTable } from "../features/feature-table";
import { signalCancellation } from "../protocol/cancellation";
import { McpError } from "../protocol/errors";
import type { Era, InboundRequest } from "../protocol/inbound-request";
import type { LogLevel, ProgressReporter, RequestLogger } from "../protocol/request-context";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { Rejection } from "./checks/inbound-checks";
import type { LegacyRounds } from "./http/sessions/session-rounds";
import { dispatchRequest } from "./request/dispatch-request";
import { noteHttpStatus } from "./request/http-status";
import { legacyAnswer, shapeElicitations } from "./request/legacy-shape";
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, sdk } from "./request/sdk-module";
import type { TransportFacts } from "./request/transport-facts";
import type { ServerInfo } from "./request/app-info";

const LEVELS: LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The transport facts of the request this context serves (`request/transport-facts.ts`). */
export type FactsLookup = (ctx: ServerContext) => TransportFacts;

export interface BridgeOptions {
  serverInfo: ServerInfo;
  instructions?: string;
  era: Era;
  /** Advertised for this era (`capabilitiesFor`), computed once per app. */
  capabilities: ServerCapabilities;
  dispatcher: Dispatcher;
  facts: FactsLookup;
  /** The params check of a routed request (`InboundChecks.params`). */
  checkParams: ParamsChecker;
  onerror: (error: Error) => void;
  /**
   * 2025 sessions over HTTP: runs the rounds of a call whose method may ask the client (instead of
   * the SDK's shim), recording them so that another instance can carry the call on.
   */
  legacyRounds?: LegacyRounds;
  /** 2025 sessions over HTTP: the session's log level, which every instance serving it shares. */
  sessionLevel?: () => LogLevel | undefined;
}

export type ParamsChecker = (method: string, params: unknown) => Rejection | undefined;

/**
 * What an app advertises to one era: what its features add, plus `logging` (per-request log
 * notifications are the bridge's own).
 */
export function capabilitiesFor(features: FeatureTable, era: Era = "modern"): ServerCapabilities {
  return { ...features.capabilities(era), logging: {} } as ServerCapabilities;
}

/**
 * The SDK's `Server` with two changes to every registered handler, through `_wrapHandler`, the
 * hook the SDK provides for a subclass to wrap them:
 * - the framework's params check runs in front. It runs after the SDK routed the request (so its
 *   envelope, header and method checks keep their order) and before the SDK's own params
 *   validation, which answers most methods' malformed params with -32603 and a zod dump;
 * - a task result passes unchanged. SDK 2.4.0 reads every `tools/call` result without `content`
 *   as a contentless CallToolResult and adds `content: []` (it leaves a result alone only when it
 *   carries `task`, `inputRequests` or `requestState`). A CreateTaskResult of the tasks extension
 *   is flat (`resultType: "task"`, `taskId`, `status`, ...) and has no `content`, so it would reach
 *   the wire with a field it must not carry; every other result keeps the SDK's own checks.
 */
function bridgeServerClass(Base: typeof Server) {
  return class BridgeServer extends Base {
    constructor(
      info: BridgeOptions["serverInfo"],
      options: ConstructorParameters<typeof Server>[1],
      // Read by the wrappers at request time: the SDK's constructor wraps its own handlers before this is set.
      private readonly checkParams: ParamsChecker,
    ) {
      super(info as ConstructorParameters<typeof Server>[0], options);
    }

    protected override _wrapHandler(
      method: string,
      handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<SdkResult>,
    ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<SdkResult> {
      const wrapped = method === "tools/call" ? this.passTasks(method, handler) : super._wrapHandler(method, handler);
      return (request, ctx) => {
        const rejection = this.checkParams?.(method, request.params);
        if (rejection) return Promise.reject(new McpError(rejection.code, rejection.message, rejection.data));
        return wrapped(request, ctx);
      };
    }

    private passTasks(
      method: string,
      handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<SdkResult>,
    ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<SdkResult> {
      const tasks = new WeakMap<JSONRPCRequest, SdkResult>();
      const checked = super._wrapHandler(method, async (request, ctx) => {
        const result = await handler(request, ctx);
        if (result.resultType === "task") tasks.set(request, result);
        return result;
      });
      return async (request, ctx) => {
        const result = await checked(request, ctx);
        const task = tasks.get(request);
        return task === undefined ? result : (tasks.delete(request), task);
      };
    }
  };
}

/** The class, made once the SDK is loaded (it extends the SDK's `Server`, loaded at first use). */
let BridgeServer: ReturnType<typeof bridgeServerClass> | undefined;

// A method the SDK has no built-in schema for is registered with its own, converted once.
const paramsSchemas = new WeakMap<FeatureMethod, ReturnType<typeof fromJsonSchema>>();

/**
 * Builds one SDK `Server` whose handlers all delegate to the dispatcher, one per method of the
 * feature table served on this era and gated by an advertised capability. The number of handlers
 * does not grow with the components, so building it costs the same for 3 components or 1,000:
 * this is what keeps the per-request factory of the SDK's HTTP entry constant-time.
 */
export function buildSdkServer(options: BridgeOptions): Server {
  const { capabilities, dispatcher, era } = options;
  BridgeServer ??= bridgeServerClass(sdk().Server);
  const server = new BridgeServer(
    options.serverInfo,
    {
      capabilities,
      ...(options.instructions !== undefined && { instructions: options.instructions }),
    },
    options.checkParams,
  );
  server.onerror = options.onerror;
  const legacy = era === "legacy";
  if (legacy) shapeElicitations(server);
  for (const entry of dispatcher.features.methods) {
    if (entry.eras !== undefined && !entry.eras.includes(era)) continue;
    if (entry.capability !== undefined && !(entry.capability in capabilities)) continue;
    const rounds = era === "legacy" && entry.inputRequired ? options.legacyRounds : undefined;
    const dispatch = (request: { params?: JsonObject }, ctx: ServerContext) => {
      const known = options.facts(ctx);
      const inbound = toInboundRequest(entry.method, request, ctx, server, known, options.sessionLevel);
      let answer =
        known.settled ??
        (rounds === undefined
          ? dispatchRequest(dispatcher, inbound, known)
          : rounds.run(inbound, (next) => dispatchRequest(dispatcher, next, known), server.getNegotiatedProtocolVersion()));
      // A 2025 client gets each result in the shape of the revision it negotiated.
      if (legacy) answer = answer.then((result) => legacyAnswer(server, dispatcher.features, entry.method, request, result));
      const outcome = known.http;
      return outcome === undefined
        ? answer
        : answer.catch((error: unknown) => (noteHttpStatus(outcome, error, known.scopeChallenge), Promise.reject(error)));
    };
    if (entry.paramsSchema === undefined) {
      server.setRequestHandler(entry.method as "tools/list", dispatch as never);
      continue;
    }
    let params = paramsSchemas.get(entry);
    if (params === undefined) paramsSchemas.set(entry, (params = sdk().fromJsonSchema(entry.paramsSchema as never)));
    server.setRequestHandler(entry.method, { params }, (parsed, ctx) => dispatch({ params: parsed as JsonObject }, ctx) as never);
  }
  return server;
}

function toInboundRequest(
  method: string,
  request: { params?: JsonObject },
  ctx: ServerContext,
  server: Server,
  known: TransportFacts,
  sessionLevel?: () => LogLevel | undefined,
): InboundRequest {
  const envelope = (ctx.mcpReq.envelope ?? {}) as JsonObject;
  const modern = typeof envelope[PROTOCOL_VERSION_META_KEY] === "string";
  const lifted = request.params ?? {};
  const meta = { ...((lifted._meta as JsonObject | undefined) ?? {}), ...envelope };
  let params: JsonObject;
  let inputResponses: unknown;
  let requestState: unknown;
  if (modern && known.rawParams) {
    params = known.rawParams;
    inputResponses = params.inputResponses;
    requestState = params.requestState;
  } else {
    // 2025 era (the rounds re-enter with their answers: the SDK's shim over stdio, the session's own
    // loop over HTTP, which builds the next round from this one) or no raw capture.
    inputResponses = ctx.mcpReq.inputResponses;
    if (ctx.mcpReq.droppedInputResponseKeys?.length) {
      inputResponses = {
        ...(inputResponses as JsonObject),
        ...Object.fromEntries(ctx.mcpReq.droppedInputResponseKeys.map((k) => [k, null])),
      };
    }
    requestState = ctx.mcpReq.requestState();
    params = { ...lifted, ...(Object.keys(meta).length > 0 && { _meta: meta }) };
  }
  const declared = modern
    ? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : (server.getClientCapabilities() as ClientCapabilities | undefined);
  const clientCapabilities = declared ?? {};
  const level = envelope[LOG_LEVEL_META_KEY] as LogLevel | undefined;
  return {
    method,
    requestId: ctx.mcpReq.id,
    ...(known.transport !== "connection" && { transportKind: known.transport }),
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    params,
    principal: known.principal,
    ...(known.authorization !== undefined && { authorization: known.authorization }),
    clientCapabilities,
    protocolVersion: envelope[PROTOCOL_VERSION_META_KEY] as string | undefined,
    era: modern ? "modern" : "legacy",
    ...(!modern && { negotiatedVersion: server.getNegotiatedProtocolVersion() }),
    // A 2025 request on a connection or session has its initialize's; one served alone has none.
    ...(!modern && declared === undefined && { capabilitiesUnknown: true }),
    inputResponses,
    requestState,
    progress: progressReporter(ctx),
    log: requestLogger(ctx, modern ? level : (sessionLevel?.() ?? LEGACY_SESSION_LEVEL)),
    cancellation: signalCancellation(ctx.mcpReq.signal),
  };
}

function progressReporter(ctx: ServerContext): ProgressReporter {
  const token = (ctx.mcpReq._meta as JsonObject | undefined)?.progressToken;
  if (typeof token !== "string" && typeof token !== "number") return { enabled: false, report: async () => {} };
  return {
    enabled: true,
    report: async (progress, total, message) => {
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken: token, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) },
      });
    },
  };
}

// A 2025 client sets its level per session (logging/setLevel): a session over HTTP shares it between
// instances (`sessionLevel`); elsewhere the SDK's `log` filters by it. Until one is set, every message goes.
const LEGACY_SESSION_LEVEL: LogLevel = "debug";

function requestLogger(ctx: ServerContext, level: LogLevel | undefined): RequestLogger {
  return {
    level,
    log: async (messageLevel, data, logger) => {
      if (level === undefined || LEVELS.indexOf(messageLevel) < LEVELS.indexOf(level)) return;
      await ctx.mcpReq.log(messageLevel, data, logger);
    },
  };
}
