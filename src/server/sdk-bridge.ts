import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type ServerContext,
  type ServerCapabilities,
} from "@modelcontextprotocol/server";
import type { Dispatcher } from "../dispatch/dispatcher";
import type { LogLevel, ProgressReporter, RequestLogger } from "../protocol/request-context";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";

const LEVELS: LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** The methods the dispatcher answers; the SDK itself answers server/discover, initialize and subscriptions/listen. */
const METHODS = {
  tools: ["tools/list", "tools/call"],
  prompts: ["prompts/list", "prompts/get"],
  resources: ["resources/list", "resources/templates/list", "resources/read"],
  completions: ["completion/complete"],
} as const;

/** Per-request facts the transport adapter knows and the SDK context does not carry. */
export interface RequestFacts {
  principal: string | null;
  /** Raw params as received, when the adapter captured them (keeps malformed retry fields visible). */
  rawParams?: JsonObject;
}

export type FactsLookup = (ctx: ServerContext) => RequestFacts;

export interface BridgeOptions {
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
  capabilities: ServerCapabilities;
  dispatcher: Dispatcher;
  facts: FactsLookup;
  onerror: (error: Error) => void;
}

/**
 * Which server capabilities an app advertises, from what it registered. `resources.subscribe`
 * is advertised to 2026-07-28 traffic only: there it means `resourceSubscriptions` on
 * `subscriptions/listen` (fed by `McpApp.notifyResourceUpdated`), and the SDK honours that filter
 * only when it is advertised; in the 2025 era it would promise `resources/subscribe`, which the
 * framework does not implement.
 */
export function capabilitiesFor(dispatcher: Dispatcher, era: "modern" | "legacy" = "modern"): ServerCapabilities {
  const r = dispatcher.registry;
  const hasResources = r.resources.size + r.templates.length > 0;
  const hasCompletions = r.prompts.size > 0 || r.templates.length > 0;
  return {
    ...(r.tools.size > 0 && { tools: { listChanged: true } }),
    ...(r.prompts.size > 0 && { prompts: { listChanged: true } }),
    ...(hasResources && { resources: { listChanged: true, ...(era === "modern" && { subscribe: true }) } }),
    ...(hasCompletions && { completions: {} }),
    logging: {},
  };
}

/**
 * Builds one SDK `Server` whose handlers all delegate to the dispatcher. The number of handlers is
 * fixed (one per method), so building it costs the same for 3 components or 1,000: this is what
 * keeps the per-request factory of the SDK's HTTP entry constant-time.
 */
export function buildSdkServer(options: BridgeOptions): Server {
  const server = new Server(options.serverInfo, {
    capabilities: options.capabilities,
    ...(options.instructions !== undefined && { instructions: options.instructions }),
  });
  server.onerror = options.onerror;
  for (const [capability, methods] of Object.entries(METHODS)) {
    if (!(capability in options.capabilities)) continue;
    for (const method of methods) {
      server.setRequestHandler(method as "tools/list", ((request: { params?: JsonObject }, ctx: ServerContext) =>
        options.dispatcher.handle(toDispatchRequest(method, request, ctx, server, options.facts))) as never);
    }
  }
  return server;
}

function toDispatchRequest(method: string, request: { params?: JsonObject }, ctx: ServerContext, server: Server, facts: FactsLookup) {
  const envelope = (ctx.mcpReq.envelope ?? {}) as JsonObject;
  const modern = typeof envelope[PROTOCOL_VERSION_META_KEY] === "string";
  const known = facts(ctx);
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
    // 2025 era (the SDK's compatibility shim re-enters with its own answers) or no raw capture.
    inputResponses = ctx.mcpReq.inputResponses;
    if (ctx.mcpReq.droppedInputResponseKeys?.length) {
      inputResponses = { ...(inputResponses as JsonObject), ...Object.fromEntries(ctx.mcpReq.droppedInputResponseKeys.map((k) => [k, null])) };
    }
    requestState = ctx.mcpReq.requestState();
    params = { ...lifted, ...(Object.keys(meta).length > 0 && { _meta: meta }) };
  }
  const clientCapabilities = (modern
    ? (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
    : (server.getClientCapabilities() as ClientCapabilities | undefined)) ?? {};
  const level = envelope[LOG_LEVEL_META_KEY] as LogLevel | undefined;
  return {
    method,
    params,
    principal: known.principal,
    clientCapabilities,
    protocolVersion: envelope[PROTOCOL_VERSION_META_KEY] as string | undefined,
    era: modern ? ("modern" as const) : ("legacy" as const),
    inputResponses,
    requestState,
    progress: progressReporter(ctx),
    log: requestLogger(ctx, modern ? level : undefined),
    signal: ctx.mcpReq.signal,
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

function requestLogger(ctx: ServerContext, level: LogLevel | undefined): RequestLogger {
  return {
    level,
    log: async (messageLevel, data, logger) => {
      if (level === undefined || LEVELS.indexOf(messageLevel) < LEVELS.indexOf(level)) return;
      await ctx.mcpReq.log(messageLevel, data, logger);
    },
  };
}
