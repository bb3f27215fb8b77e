import { container as rootContainer, type DependencyContainer } from "tsyringe";
import { createMcpHandler, InMemoryTransport, type McpHttpHandler, type ServerContext, type Transport } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport, type StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { ComponentRegistry } from "../registry/component-registry";
import { Dispatcher, type ListCacheHint, type ResultValidator } from "../dispatch/dispatcher";
import { APP_LOGGER, StderrLogger, type AppLogger } from "../protocol/app-logger";
import type { Middleware } from "../protocol/middleware";
import { StateSealer } from "../state/state-sealer";
import { createStateSealer, type StateOptions } from "../state/create-state-sealer";
import type { JsonObject } from "../protocol/wire-types";
import { buildSdkServer, capabilitiesFor, type RequestFacts } from "./sdk-bridge";
import { startHttpListener, type HttpListener, type ListenOptions } from "./http-listener";
import { ConnectionTransport } from "./connection-transport";
import { ChangeNotifier } from "./change-notifier";

export interface McpAppOptions {
  /** Decorated component classes. */
  components: Function[];
  /** Server name and version published in `serverInfo`. */
  name?: string;
  version?: string;
  title?: string;
  instructions?: string;
  /** The tsyringe container to register into; default a child of the global container. */
  container?: DependencyContainer;
  /**
   * How requestState is sealed: `{ secret }`, `{ keys }`, `{ keysFromEnv: "VAR" }`, or
   * `{ ephemeral: true }` for local development. Optional when the container already has a
   * `StateSealer` registered.
   */
  state?: StateOptions;
  /** Diagnostic logger (stderr JSON lines by default; never stdout, which stdio uses). */
  logger?: AppLogger;
  /** App-wide middleware, run before each component's own, on every round. */
  middleware?: Middleware[];
  /** Runs on every final result. */
  resultValidator?: ResultValidator;
  /** Cache hints for list results. Default `{ ttlMs: 0, cacheScope: "private" }`. */
  listCache?: ListCacheHint;
  /** Principal for requests arriving over stdio or in-process (no transport authentication). Default null. */
  localPrincipal?: string | null;
}

/** Options of `serveStdio` and `connect`. */
export interface ConnectionOptions {
  /** Serve 2025-era clients on this connection (default "serve"). */
  legacy?: "serve" | "reject";
  /**
   * Principal of every request on this connection, instead of the app's `localPrincipal`: lets a
   * test act as another user in-process (`roundtrip-mcp/testing` uses it for `client.as(...)`).
   *
   * @example const transport = await app.connect({ principal: "alice" });
   */
  principal?: string | null;
}

/**
 * A roundtrip-mcp application: components registered, metadata read, schemas built — once.
 *
 * @example const app = McpApp.create({ components: [Greeter], state: { ephemeral: true } }); await app.listen({ port: 3000 });
 */
export class McpApp {
  readonly container: DependencyContainer;
  readonly dispatcher: Dispatcher;
  readonly logger: AppLogger;
  /** Announces list changes and resource updates to open `subscriptions/listen` streams (also injectable). */
  readonly changes: ChangeNotifier;
  private readonly listeners = new Set<HttpListener>();
  private readonly connections = new Set<StdioServerHandle>();
  /** HTTP handlers this app made, each with the function that detaches it from `changes`. */
  private readonly handlers = new Map<McpHttpHandler, () => void>();
  private readonly serverInfo: { name: string; version: string; title?: string };

  private constructor(private readonly options: McpAppOptions) {
    this.container = options.container ?? rootContainer.createChildContainer();
    this.logger = options.logger ?? (this.container.isRegistered(APP_LOGGER) ? this.container.resolve<AppLogger>(APP_LOGGER) : new StderrLogger());
    if (!this.container.isRegistered(APP_LOGGER)) this.container.registerInstance(APP_LOGGER, this.logger);
    const registry = new ComponentRegistry(options.components ?? []);
    if (!this.container.isRegistered(StateSealer, true)) {
      if (!options.state) {
        throw new TypeError(
          "McpApp.create: the state option is required (or register a StateSealer in the container): " +
            "{ secret }, { keys }, { keysFromEnv: \"VAR\" } or { ephemeral: true } for local development",
        );
      }
      this.container.registerInstance(StateSealer, createStateSealer(options.state, this.logger));
    } else if (options.state) {
      throw new TypeError("McpApp.create: a StateSealer is already registered in the container; drop the state option");
    }
    // Components reach the notifier by injection; an app sharing a container shares it.
    if (!this.container.isRegistered(ChangeNotifier, false)) this.container.registerInstance(ChangeNotifier, new ChangeNotifier());
    this.changes = this.container.resolve(ChangeNotifier);
    for (const cls of options.components) {
      if (!this.container.isRegistered(cls as never, true)) this.container.registerSingleton(cls as never);
    }
    this.serverInfo = { name: options.name ?? "roundtrip-mcp-app", version: options.version ?? "0.0.0", ...(options.title && { title: options.title }) };
    this.dispatcher = new Dispatcher({
      registry,
      container: this.container,
      sealer: this.container.resolve(StateSealer),
      logger: this.logger,
      middleware: options.middleware,
      resultValidator: options.resultValidator,
      listCache: options.listCache,
    });
  }

  /** Builds the app; throws a `RegistrationError` naming the class and method for any declaration problem. */
  static create(options: McpAppOptions): McpApp {
    return new McpApp(options);
  }

  /** The sealer the dispatcher uses (also injectable as `StateSealer`). */
  get sealer(): StateSealer {
    return this.container.resolve(StateSealer);
  }

  /** Serves this process's stdin/stdout. Resolves once the connection is set up. */
  serveStdio(options: ConnectionOptions = {}): StdioServerHandle {
    return this.serveConnection(new StdioServerTransport(), options);
  }

  /**
   * Serves one in-process connection and returns the client side of an in-memory transport pair,
   * for tests and embedding: the same SDK path as stdio, without a child process.
   */
  async connect(options: ConnectionOptions = {}): Promise<Transport> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    this.serveConnection(serverSide, options);
    return clientSide;
  }

  /** Serves Streamable HTTP on `host:port` + `path`. Default host 127.0.0.1, path /mcp, port 0 (free). */
  async listen(options: ListenOptions = {}): Promise<HttpListener> {
    const handler = this.httpHandler();
    const listener = await startHttpListener(handler, this.dispatcher.registry, options, (e) => this.reportError(e));
    this.listeners.add(listener);
    return {
      url: listener.url,
      port: listener.port,
      close: async () => {
        this.listeners.delete(listener);
        this.handlers.get(handler)?.();
        this.handlers.delete(handler);
        await listener.close();
      },
    };
  }

  /**
   * The fetch-shaped Streamable HTTP handler, to mount in any web-standard runtime or framework.
   * Authentication and Host/Origin checks are the caller's job here (`listen` does them).
   */
  httpHandler(): McpHttpHandler {
    const capabilities = { modern: capabilitiesFor(this.dispatcher, "modern"), legacy: capabilitiesFor(this.dispatcher, "legacy") };
    const handler = createMcpHandler(
      ({ era }) =>
        buildSdkServer({
          serverInfo: this.serverInfo,
          instructions: this.options.instructions,
          capabilities: capabilities[era],
          dispatcher: this.dispatcher,
          facts: httpFacts,
          onerror: (e) => this.reportError(e),
        }),
      { onerror: (e) => this.reportError(e) },
    );
    this.handlers.set(handler, this.changes.attach(handler.notify));
    return handler;
  }

  /** Tells open `subscriptions/listen` streams that the tool list changed (same as `changes.toolsChanged()`). */
  notifyToolsChanged(): void {
    this.changes.toolsChanged();
  }

  /** Tells open `subscriptions/listen` streams that the prompt list changed. */
  notifyPromptsChanged(): void {
    this.changes.promptsChanged();
  }

  /** Tells open `subscriptions/listen` streams that the resource list changed. */
  notifyResourcesChanged(): void {
    this.changes.resourcesChanged();
  }

  /** Tells subscribers of `uri` that it changed. */
  notifyResourceUpdated(uri: string): void {
    this.changes.resourceUpdated(uri);
  }

  /** Closes every listener and connection this app opened. */
  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((l) => l.close()));
    await Promise.all([...this.connections].map((c) => c.close()));
    await Promise.all([...this.handlers].map(([h, detach]) => (detach(), h.close())));
    this.listeners.clear();
    this.connections.clear();
    this.handlers.clear();
  }

  private serveConnection(inner: Transport, options: ConnectionOptions): StdioServerHandle {
    const transport = new ConnectionTransport(inner);
    const capabilities = { modern: capabilitiesFor(this.dispatcher, "modern"), legacy: capabilitiesFor(this.dispatcher, "legacy") };
    const localPrincipal = options.principal !== undefined ? options.principal : (this.options.localPrincipal ?? null);
    const handle = serveStdio(
      ({ era }) =>
        buildSdkServer({
          serverInfo: this.serverInfo,
          instructions: this.options.instructions,
          capabilities: capabilities[era],
          dispatcher: this.dispatcher,
          facts: (ctx) => ({ principal: localPrincipal, rawParams: transport.rawParams(ctx.mcpReq.id) }),
          onerror: (e) => this.reportError(e),
        }),
      { transport, legacy: options.legacy ?? "serve", onerror: (e) => this.reportError(e) },
    );
    this.connections.add(handle);
    return handle;
  }

  private reportError(error: Error): void {
    this.logger.debug("sdk", { error: error.message });
  }
}

function httpFacts(ctx: ServerContext): RequestFacts {
  const extra = ctx.http?.authInfo?.extra as { principal?: string | null; rawParams?: JsonObject } | undefined;
  return { principal: extra?.principal ?? null, rawParams: extra?.rawParams };
}
