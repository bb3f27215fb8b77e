import type { AuthOptions } from "../auth/bearer-auth";
import { container as rootContainer, type DependencyContainer } from "tsyringe";
import type { McpHttpHandler, Transport } from "@modelcontextprotocol/server";
import { sdk } from "./request/sdk-module";
import { Dispatcher } from "../dispatch/dispatcher";
import { telemetryFrom } from "../dispatch/telemetry/telemetry-from";
import { RateLimiter } from "../dispatch/rate-limiter";
import { BUILT_IN_FEATURES } from "../features/built-in-features";
import { DEFAULT_APP_NAME, FeatureTable } from "../features/feature-table";
import type { AppDescription } from "../features/component-description";
import { APP_LOGGER, StderrLogger, type AppLogger } from "../protocol/app-logger";
import type { Era } from "../protocol/inbound-request";
import { StateSealer } from "../state/state-sealer";
import type { ChangeNotifier } from "./change-notifier";
import { buildComponents } from "./component-instances";
import { warnSharedTransients } from "./shared-transients";
import { serveConnection } from "./app-connections";
import type { HttpAnswerer } from "./http/http-answerer";
import type { HttpRoute } from "./http/http-routes";
import { DEFAULT_DRAIN_MS, drainDeadline, type CloseOptions, type HttpListener, type ListenOptions } from "./http/listen-options";
import type { HealthEndpoints, HealthHandler, HealthOptions } from "./http/health";
import type { ServerCardHandler, ServerCardOptions } from "./http/server-card";
import type { NodeMount, NodeHandler, NodeHandlerOptions } from "./http/node-mount";
import { InboundChecks } from "./checks/inbound-checks";
import { resolveRequestLimits } from "./checks/request-limits";
import { StdioLineTransport } from "./stdio/stdio-line-transport";
import { OpeningDiscover } from "./stdio/opening-discover";
import { FastLane, fastLaneEnabled } from "./lane/fast-lane";
import { capabilitiesFor } from "./sdk-bridge";
import { sdkServerFactory, type AppSdkParts } from "./app-sdk-servers";
import { httpWing } from "./app-lazy";
import { httpFacts, positiveOption, registerChangeNotifier, registerComponents, registerSealer } from "./app-bootstrap";
import { appInfo, serverInfoOf, type AppInfo, type ServerInfo } from "./request/app-info";
import type { McpAppOptions, ServedConnection, ServeOptions } from "./mcp-app-options";
import { MemoryMessageBus, type MessageBus } from "../stores/message-bus";
import type { LegacySessions } from "./http/sessions/legacy-sessions";
import { resolveSessionOptions, type ResolvedSessionOptions } from "./http/sessions/session-options";

/**
 * A roundtrip-mcp application: components registered, metadata read, schemas built — once.
 *
 * @example const app = McpApp.create({ components: [Greeter], state: { ephemeral: true } }); await app.listen({ port: 3000 });
 */
export class McpApp {
  readonly container: DependencyContainer;
  readonly logger: AppLogger;
  /** Announces list changes and resource updates to open `subscriptions/listen` streams (also injectable). */
  readonly changes: ChangeNotifier;
  private readonly features: FeatureTable;
  private readonly dispatcher: Dispatcher;
  private readonly checks: InboundChecks;
  private readonly capabilities: Record<Era, ReturnType<typeof capabilitiesFor>>;
  private readonly listeners = new Set<HttpListener>();
  private readonly connections = new Set<ServedConnection>();
  /** HTTP handlers this app made, each with the function that detaches it from `changes`. */
  private readonly handlers = new Map<McpHttpHandler, () => void>();
  /** Node handlers this app made (`nodeHandler()`): drained by `close()` like listeners. */
  private readonly mounts = new Set<NodeMount>();
  /** Set once `close()` begins: readiness answers 503 from then on. */
  private closing = false;
  /** How the app presents itself (its `serverInfo`, server card and `server.json`), checked when it was built. */
  readonly info: AppInfo;
  private readonly serverInfo: ServerInfo;
  private readonly lane: FastLane;
  private readonly sdkParts: AppSdkParts;
  /** The bus every instance shares (2025 session answers); the app's own memory bus unless one is given. */
  readonly bus: MessageBus;
  private readonly sessionOptions: ResolvedSessionOptions | undefined;
  /** Ends the sharing of `changes` over the bus (see ChangeNotifier.share). */
  private readonly stopSharingChanges: () => Promise<void>;
  /** The 2025 sessions of every HTTP entry of this app, made with the first entry. */
  private legacySessions: LegacySessions | undefined;
  /** Routes of `listen()` beside the MCP path, by exact pathname (`http/http-routes.ts`). */
  private readonly routes = new Map<string, HttpRoute>();
  /** The app's `fastLane` switch, the environment's default applied once. */
  private readonly laneOn: boolean;

  private constructor(private readonly options: McpAppOptions) {
    this.container = options.container ?? rootContainer.createChildContainer();
    this.logger =
      options.logger ?? (this.container.isRegistered(APP_LOGGER) ? this.container.resolve<AppLogger>(APP_LOGGER) : new StderrLogger());
    if (!this.container.isRegistered(APP_LOGGER)) this.container.registerInstance(APP_LOGGER, this.logger);
    const components = options.components ?? [];
    this.info = appInfo(options, DEFAULT_APP_NAME);
    const sealer = registerSealer(this.container, options.state, this.logger);
    this.changes = registerChangeNotifier(this.container);
    this.features = new FeatureTable([...BUILT_IN_FEATURES, ...(options.features ?? [])], {
      components,
      listCache: options.listCache,
      listPageSize: options.listPageSize,
      sealer: () => sealer,
      scopeHierarchy: options.scopeHierarchy,
      logger: this.logger,
      appName: options.name ?? DEFAULT_APP_NAME,
      changes: this.changes,
    });
    registerComponents(this.container, components);
    buildComponents(this.container, components);
    warnSharedTransients(this.container, components, this.logger);
    this.serverInfo = serverInfoOf(this.info);
    this.dispatcher = new Dispatcher({
      features: this.features,
      container: this.container,
      sealer: this.container.resolve(StateSealer),
      logger: this.logger,
      middleware: options.middleware,
      resultValidator: options.resultValidator,
      timeoutMs: positiveOption(options.timeoutMs, "timeoutMs"),
      exposeErrors: options.exposeErrors === true,
      telemetry: telemetryFrom(options.telemetry),
      rateLimiter: new RateLimiter(options.rateLimits ?? {}, this.logger),
    });
    this.checks = new InboundChecks(this.features, resolveRequestLimits(options.limits));
    this.capabilities = { modern: capabilitiesFor(this.features, "modern"), legacy: capabilitiesFor(this.features, "legacy") };
    this.laneOn = fastLaneEnabled(options.fastLane);
    this.lane = new FastLane({
      dispatcher: this.dispatcher,
      checks: this.checks,
      serverInfo: this.serverInfo,
      capabilities: this.capabilities.modern,
    });
    this.sdkParts = {
      serverInfo: this.serverInfo,
      instructions: options.instructions,
      capabilities: this.capabilities,
      dispatcher: this.dispatcher,
      checks: this.checks,
      onerror: (e) => this.reportError(e),
    };
    this.bus = options.bus ?? new MemoryMessageBus((error) => this.logger.warn("message bus handler failed", { error: String(error) }));
    this.stopSharingChanges = this.changes.share(this.bus, `roundtrip-mcp/changes/${this.serverInfo.name}`, this.logger);
    this.sessionOptions = options.sessions === false ? undefined : resolveSessionOptions(options.sessions);
    // Background work (the tasks feature's recovery) starts once everything above is in place.
    this.features.start(this.dispatcher);
  }

  /** Builds the app; throws a `RegistrationError` naming the class and method for any declaration problem. */
  static create(options: McpAppOptions): McpApp {
    return new McpApp(options);
  }

  /**
   * What the app serves and what only its declarations say: each component's listed descriptor, its `@Elicit`
   * questions in order, its scopes, what features add to it and say of themselves. Plain JSON; `roundtrip-mcp inspect` prints it.
   */
  describe(): AppDescription {
    return this.features.describeApp(this.serverInfo);
  }

  /** The sealer the dispatcher uses (also injectable as `StateSealer`). */
  get sealer(): StateSealer {
    return this.container.resolve(StateSealer);
  }

  /**
   * Serves one connection over any SDK `Transport` (stdio, in-memory, a socket of your own):
   * every request on it passes the same checks and dispatcher as every other transport.
   *
   * @example app.serve(new StdioServerTransport(socketIn, socketOut));
   */
  serve(transport: Transport, options: ServeOptions = {}): ServedConnection {
    const stdioLane = transport instanceof StdioLineTransport && this.laneOn;
    const served = serveConnection(transport, {
      checks: this.checks,
      lane: stdioLane ? this.lane : undefined,
      ...(stdioLane && { opening: new OpeningDiscover(this.sdkParts.capabilities.modern, this.sdkParts) }),
      principal: options.principal !== undefined ? options.principal : (this.options.localPrincipal ?? null),
      authorization: options.authorization,
      servers: (facts) => sdkServerFactory(this.sdkParts, facts),
      legacy: options.legacy ?? "serve",
      logger: this.logger,
      onerror: (e) => this.reportError(e),
      closing: (connection) => this.connections.delete(connection),
    });
    this.connections.add(served);
    return served;
  }

  /**
   * Serves this process's stdin/stdout. Every line gets an answer: one that is not JSON -32700, one
   * over a limit -32602 (or -32600 over `maxBodyBytes`), and the process keeps serving.
   */
  serveStdio(options: ServeOptions = {}): ServedConnection {
    return this.serve(new StdioLineTransport(this.checks), options);
  }

  /**
   * Serves one in-process connection and returns the client side of an in-memory transport pair,
   * for tests and embedding: the same path as stdio, without a child process.
   */
  async connect(options: ServeOptions = {}): Promise<Transport> {
    const [clientSide, serverSide] = sdk().InMemoryTransport.createLinkedPair();
    this.serve(serverSide, options);
    return clientSide;
  }

  /** Serves Streamable HTTP on `host:port` + `path`. Default host 127.0.0.1, path /mcp, port 0 (free). */
  async listen(options: ListenOptions = {}): Promise<HttpListener> {
    // The listener runs the lane itself (before building a web Request); its handler does not again.
    const answerer = this.answerer(options.fastLane ?? this.laneOn);
    const handler = answerer.sdk;
    let listener: HttpListener;
    try {
      const served = httpWing().listenRoutes(this.routes, options, this.info, (health) => this.healthEndpoints(health));
      const auth = options.auth === undefined ? undefined : new (httpWing().HttpAuth)(options.auth, this.features, this.logger);
      listener = await httpWing().startHttpListener(answerer, options, this.logger, (e) => this.reportError(e), served.routes, auth);
      served.located(listener.url);
    } catch (error) {
      this.handlers.get(handler)?.();
      this.handlers.delete(handler);
      await handler.close();
      throw error;
    }
    this.listeners.add(listener);
    this.features.serving({ transport: "http", authenticated: options.authenticate !== undefined || options.auth !== undefined });
    return {
      url: listener.url,
      port: listener.port,
      close: async (closeOptions?: CloseOptions) => {
        // A close refused for its options leaves the listener open, and the app's to close.
        await listener.close(closeOptions);
        this.listeners.delete(listener);
        // Listen streams hear of changes until the drain ends them.
        this.handlers.get(handler)?.();
        this.handlers.delete(handler);
      },
    };
  }

  /**
   * The fetch-shaped Streamable HTTP handler, to mount in any web-standard runtime or framework.
   * It makes the framework's own request checks: the body size and the other request limits (on a
   * body it reads, or on a `parsedBody` you pass), the `Mcp-Param-*` headers. Host/Origin checks,
   * authentication, timeouts and connection caps are the caller's job here (`listen` does them).
   * The principal of a request is `options.authInfo.extra.principal` (null when absent), unless
   * `options.auth` makes the handler an OAuth 2.1 resource server (docs/authorization.md): then
   * `auth.resource` is required, and the host routes the metadata's well-known path here too.
   *
   * @example const handler = app.httpHandler({ auth: { resource: "https://mcp.example.com/mcp", verifier: jwtVerifier({ issuer }) } });
   */
  httpHandler(options: { auth?: AuthOptions } = {}): McpHttpHandler {
    const auth = options.auth && httpWing().mountAuth(options.auth, this.features, this.logger, "httpHandler");
    return httpWing().httpEntry(this.answerer(this.laneOn), auth);
  }

  /**
   * The app as a Node `(req, res, next?)` handler, to mount in Express, Fastify, Hono on Node or a
   * `node:http` server of your own, making every check `listen()` makes: Host and Origin
   * (`allowedHosts`, default localhost), `authenticate` and the principal, the request limits, a
   * stalled body (408 after `requestTimeoutMs`), the `Mcp-Param-*` headers. It reads the body
   * itself; a body a parser already read is taken from `req.body` (the parsed message, or the raw
   * text as a string or Buffer) with the same checks, and answered 500 naming the fix when the
   * parser kept nothing. `close()` drains it like a listener. See docs/deployment.md, "Mounting".
   *
   * @example expressApp.post("/mcp", app.nodeHandler({ allowedHosts: ["mcp.example.com"], authenticate }));
   */
  nodeHandler(options: NodeHandlerOptions = {}): NodeHandler {
    if (options.auth !== undefined && options.authenticate !== undefined)
      throw new TypeError("nodeHandler: give auth or authenticate, not both");
    const wing = httpWing();
    const auth = options.auth && wing.mountAuth(options.auth, this.features, this.logger, "nodeHandler");
    const answerer = this.answerer(options.fastLane ?? this.laneOn);
    const mount = new wing.NodeMount(answerer, options, this.logger, (e) => this.reportError(e), auth);
    this.mounts.add(mount);
    this.features.serving({ transport: "http", authenticated: options.authenticate !== undefined || options.auth !== undefined });
    return mount.handle;
  }

  /**
   * The liveness and readiness endpoints as a handler to route (`listen({ health })` serves the
   * same on the listener). Readiness is 503 while a dependency cannot be reached (the tasks
   * feature's store, each of `options.checks`, such as a message bus) and from the moment
   * `close()` begins. See docs/deployment.md, "Health endpoints".
   *
   * @example const health = app.healthHandler(); expressApp.get(["/healthz", "/readyz"], (req, res) => health.node(req, res));
   */
  healthHandler(options: HealthOptions = {}): HealthHandler {
    const endpoints = this.healthEndpoints(options);
    return {
      fetch: (request) => endpoints.fetch(request),
      node: (req, res, next) => endpoints.node(req, res, next),
      liveness: () => endpoints.liveness(),
      readiness: () => endpoints.readiness(),
    };
  }

  /**
   * The app's server card (SEP-2127) as a handler to route at `<MCP URL>/server-card` beside a mounted `httpHandler()`
   * or `nodeHandler()`; `options.url`, that public MCP URL, is required. See docs/deployment.md, "Discovery".
   *
   * @example expressApp.all("/mcp/server-card", app.serverCardHandler({ url: "https://mcp.example.com/mcp" }).node);
   */
  serverCardHandler(options: ServerCardOptions): ServerCardHandler {
    return httpWing().serverCardHandler(this.info, options);
  }

  private healthEndpoints(options: HealthOptions): HealthEndpoints {
    const sources = { features: this.features, sharedBus: this.options.bus, closing: () => this.closing, logger: this.logger };
    return httpWing().appHealthEndpoints(options, sources);
  }

  /** The one HTTP answerer of a listener or a mounted handler, over an SDK handler of its own (attached to `changes`). */
  private answerer(laneOn: boolean): HttpAnswerer {
    const sdkHandler = sdk().createMcpHandler(sdkServerFactory(this.sdkParts, httpFacts), { onerror: (e) => this.reportError(e) });
    this.handlers.set(sdkHandler, this.changes.attach(sdkHandler.notify));
    return new (httpWing().HttpAnswerer)(sdkHandler, this.checks, laneOn ? this.lane : undefined, this.sessions());
  }

  /**
   * Closes gracefully: every listener and connection this app opened stops taking requests and
   * lets those in flight finish (up to `drainTimeoutMs`, default each listener's own, 10,000; see
   * `HttpListener.close`), then the features free what they hold: the tasks feature hands its
   * running tasks over (their leases released, so another instance claims them at once).
   */
  async close(options?: CloseOptions): Promise<void> {
    const mountDeadline = drainDeadline(options?.drainTimeoutMs, DEFAULT_DRAIN_MS, "close");
    this.closing = true;
    // Every transport drains at the same time: the close takes one deadline, not one per transport.
    await Promise.all([
      ...[...this.listeners].map((l) => l.close(options)),
      ...[...this.connections].map((c) => c.close(options)),
      ...[...this.mounts].map((m) => m.drain(mountDeadline)),
    ]);
    this.mounts.clear();
    await Promise.all([...this.handlers].map(([h, detach]) => (detach(), h.close())));
    await this.legacySessions?.close();
    this.legacySessions = undefined;
    await this.stopSharingChanges();
    // A bus the app made is the app's to close; one it was given belongs to the caller.
    if (this.options.bus === undefined) await this.bus.close();
    this.listeners.clear();
    this.connections.clear();
    this.handlers.clear();
    await this.features.close();
  }

  /** The 2025-11-25 sessions shared by every HTTP entry (undefined with `sessions: false`). */
  private sessions(): LegacySessions | undefined {
    const options = this.sessionOptions;
    if (options === undefined || this.legacySessions !== undefined) return this.legacySessions;
    const { appLegacySessions } = httpWing();
    const sessions = appLegacySessions(this.sdkParts, { sealer: this.sealer, logger: this.logger, bus: this.bus, options }, httpFacts);
    this.changes.attach(sessions);
    return (this.legacySessions = sessions);
  }

  private reportError(error: Error): void {
    this.logger.debug("sdk", { error: error.message });
  }
}
