import type { McpApp } from "../server/mcp-app";
import { MemoryLogger } from "./loggers";
import type { BoundaryName } from "./channel";
import type { ClientHost, PrincipalChoice } from "./client-host";
import { Flow } from "./flow";
import { walkPages, type ListAllOptions, type ListedPages } from "./list-pages";
import { mergeOptions, type CallOptions, type RunOptions, type Script } from "./flow-options";
import type { Round } from "./channel";
import type { TestClock } from "./test-clock";
import type { ClientCapabilities, JsonObject } from "../protocol/wire-types";
import type { PromptResult, ToolResult } from "../protocol/content";
import {
  META,
  PROTOCOL_VERSION,
  type ClientInfo,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type ReadResourceResult,
  type WireResult,
} from "./wire-messages";

/** The identity a test client reports in `_meta` unless told otherwise. */
export const TEST_CLIENT_INFO: ClientInfo = Object.freeze({ name: "roundtrip-mcp-testing", version: "1.0.0" });

/** Defaults of every request a test client sends. */
export interface TestClientOptions {
  /** Client capabilities declared on each request (default `{}`: none). */
  capabilities?: ClientCapabilities;
  /** Reported in `_meta` (default `TEST_CLIENT_INFO`); null leaves it out. */
  clientInfo?: ClientInfo | null;
  /** Protocol version in `_meta` and the HTTP header (default "2026-07-28"). */
  protocolVersion?: string;
  /** Asks for `notifications/message` on every request. */
  logLevel?: CallOptions["logLevel"];
  /** Extra `_meta` entries on every request. */
  meta?: JsonObject;
  /** How long to wait for each response (default 10 s; 30 s over stdio, where the server starts first). */
  timeoutMs?: number;
  /**
   * Sees every round this client (and the clients derived from it) completes, before the test
   * does: to validate each response against a schema, or to log the wire.
   *
   * @example const rounds: Round[] = []; const client = await createTestClient([Tools], { onRound: (round) => rounds.push(round) });
   */
  onRound?: (round: Round) => void;
}

/** Options of `client.raw` and `client.exchange`. */
export interface RawOptions extends CallOptions {
  /** The JSON-RPC id to use (default the client's next). */
  id?: JsonRpcId;
}

/**
 * A client for tests that speaks MCP 2026-07-28 itself over a real boundary and hands every
 * round to the test: `callTool`, `readResource`, `getPrompt` and `request` return a `Flow`;
 * `run` completes one from a script; `raw` sends exactly what it is given. Build one with
 * `createTestClient` (in-process), `createStdioTestClient` or `createHttpTestClient`.
 *
 * @example const round1 = await client.callTool("choose_preferences");
 */
export class TestClient {
  // Private, with an internal factory: the declarations then show no constructor a user could call.
  private constructor(
    private readonly host: ClientHost,
    private readonly defaults: TestClientOptions,
    private readonly principalChoice: PrincipalChoice = undefined,
  ) {}

  /** @internal Use `createTestClient`, `createStdioTestClient` or `createHttpTestClient`. */
  static fromHost(host: ClientHost, defaults: TestClientOptions): TestClient {
    return new TestClient(host, defaults);
  }

  /** Which boundary requests cross. */
  get boundary(): BoundaryName {
    return this.host.spec.boundary;
  }

  /**
   * The app served: the one the kit built from components, or the one it was given. Throws over
   * stdio and for a bare URL, where the app lives in another process.
   *
   * @example client.app.changes.toolsChanged();
   */
  get app(): McpApp {
    const app = this.host.spec.app;
    if (app === undefined)
      throw new Error(
        `client.app: the app runs in another process (${this.boundary === "stdio" ? "a stdio child" : "at a URL"}); only an in-process or HTTP client given an app or components has one`,
      );
    return app;
  }

  /**
   * The app's `MemoryLogger`, to read what it logged (`entries`). A client built from components
   * has one; a ready app must be built with `logger: new MemoryLogger()`. Throws otherwise.
   *
   * @example expect(client.logger.entries).toContainEqual(expect.objectContaining({ message: "requestState rejected" }));
   */
  get logger(): MemoryLogger {
    const logger = this.app.logger;
    if (!(logger instanceof MemoryLogger)) {
      throw new Error(
        `client.logger: the app logs to a ${logger.constructor.name}; build it with logger: new MemoryLogger() to read its entries`,
      );
    }
    return logger;
  }

  /** The HTTP endpoint (HTTP boundary only). */
  get url(): string | undefined {
    return this.host.spec.url;
  }

  /** The principal chosen with `as`, or undefined for the boundary's own. */
  get principal(): string | null | undefined {
    return this.principalChoice?.principal;
  }

  /** The capabilities declared by default. */
  get capabilities(): ClientCapabilities {
    return this.defaults.capabilities ?? {};
  }

  /**
   * The clock of the app's state sealer, to expire `requestState` on demand. Throws when the kit
   * does not control it (an app built without `createTestClock()`, or a server in another process).
   *
   * @example client.clock.advance(301);
   */
  get clock(): TestClock {
    const clock = this.host.spec.clock;
    if (clock === undefined) throw new Error(`client.clock: ${this.host.spec.noClockReason ?? "this client has no test clock"}`);
    return clock;
  }

  /** Every notification received so far, on any request, in order. */
  get notifications(): readonly JsonRpcNotification[] {
    return this.host.notifications;
  }

  /** Messages no request was waiting for: a server request, a stray response, a non-JSON line. A correct server leaves this empty. */
  get unexpectedMessages(): readonly unknown[] {
    return this.host.unexpected;
  }

  /**
   * Calls a tool; the flow holds its final result, its input requests or its error.
   *
   * @example const flow = await client.callTool("book_trip", { destination: "Oslo" }, { capabilities: { elicitation: {} } });
   */
  callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<Flow<WireResult & ToolResult>> {
    return this.request<WireResult & ToolResult>("tools/call", { name, arguments: args }, options);
  }

  /**
   * Reads a resource.
   *
   * @example expect((await client.readResource("profile://ada/card")).status).toBe("input_required");
   */
  readResource(uri: string, options: CallOptions = {}): Promise<Flow<ReadResourceResult>> {
    return this.request<ReadResourceResult>("resources/read", { uri }, options);
  }

  /**
   * Gets a prompt.
   *
   * @example const flow = await client.getPrompt("interview", { topic: "tea" });
   */
  getPrompt(name: string, args?: Record<string, string>, options: CallOptions = {}): Promise<Flow<WireResult & PromptResult>> {
    return this.request<WireResult & PromptResult>("prompts/get", { name, ...(args !== undefined && { arguments: args }) }, options);
  }

  /**
   * Walks every page of a list (`tools/list`, `resources/list`, `resources/templates/list`,
   * `prompts/list`, the skills extension's `skills/list` and `resources/directory/read`), following
   * `nextCursor`, and returns the entries of all pages in order and each page's result; throws on
   * an error answer. A single `request("tools/list")` is one page.
   *
   * @example const { items } = await client.listAll("tools/list"); expect(items).toHaveLength(1000);
   * @example const { items } = await client.listAll("resources/directory/read", { params: { uri: "skill://pdf/references" } });
   */
  listAll(method: string, options: ListAllOptions = {}): Promise<ListedPages> {
    return walkPages((params, callOptions) => this.raw(method, params, callOptions), method, options);
  }

  /**
   * Sends any method with the client's `_meta` envelope added; the flow holds the answer.
   * `_meta` entries in `params` join the envelope on every round; `inputResponses` and
   * `requestState` in `params` go on the first round only (answers given before being asked).
   *
   * @example const tools = (await client.request("tools/list")).result.tools;
   */
  async request<R extends WireResult = WireResult>(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<Flow<R>> {
    const { _meta: meta, inputResponses, requestState, ...base } = params;
    const callOptions = meta === undefined ? options : { ...options, meta: { ...(meta as JsonObject), ...options.meta } };
    const retryFields = { ...(inputResponses !== undefined && { inputResponses }), ...(requestState !== undefined && { requestState }) };
    const round = await this.exchange(method, { ...base, _meta: this.meta(callOptions), ...retryFields }, callOptions);
    return Flow.first<R>(this, method, base, callOptions, round);
  }

  /**
   * Automatic mode: sends the request, answers every round from `script`, and returns the last
   * round (complete or error); `flow.rounds` says how many requests it took.
   *
   * @example const done = await client.run("tools/call", { name: "choose_style", arguments: {} }, { color: accept({ color: "red" }), style: (asked) => accept({ style: asked.choices![0] }) });
   */
  async run<R extends WireResult = WireResult>(
    method: string,
    params: JsonObject,
    script: Script,
    options: RunOptions = {},
  ): Promise<Flow<R>> {
    const { maxRounds, ...callOptions } = options;
    const first = await this.request<R>(method, params, callOptions);
    return first.run(script, { ...callOptions, ...(maxRounds !== undefined && { maxRounds }) });
  }

  /**
   * Sends `method` with `params` exactly and returns the exact JSON-RPC response. The client's
   * `_meta` envelope is added only when `params` has no `_meta` key (give `_meta: undefined` to
   * send none at all).
   *
   * @example const raw = await client.raw("tools/call", { name: "x", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "1900-01-01" } });
   */
  async raw(method: string, params: JsonObject = {}, options: RawOptions = {}): Promise<JsonRpcResponse> {
    return (await this.exchange(method, "_meta" in params ? params : { ...params, _meta: this.meta(options) }, options)).response;
  }

  /**
   * Sends one request with `params` exactly (no envelope added) and returns the whole round:
   * the exact request and response, notifications, and the HTTP status and headers.
   *
   * @example const round = await client.exchange("tools/list", { _meta: client.meta() }); expect(round.http?.status).toBe(200);
   */
  async exchange(method: string, params: JsonObject, options: RawOptions = {}): Promise<Round> {
    const channel = await this.host.channel(this.principalChoice);
    const request: JsonRpcRequest = { jsonrpc: "2.0", id: options.id ?? this.host.nextId(), method, params };
    const exchanged = await channel.request(request, {
      timeoutMs: options.timeoutMs ?? this.defaults.timeoutMs ?? this.host.spec.timeoutMs,
      headers: options.headers,
    });
    const round: Round = {
      request: JSON.parse(JSON.stringify(request)) as JsonRpcRequest,
      response: exchanged.response,
      notifications: exchanged.notifications,
      ...(exchanged.http && { http: exchanged.http }),
    };
    this.defaults.onRound?.(round);
    return round;
  }

  /**
   * Sends a notification (on stdio, `notifications/cancelled` is the one clients may send).
   *
   * @example await client.notify("notifications/cancelled", { requestId: 7 });
   */
  async notify(method: string, params: JsonObject = {}, options: CallOptions = {}): Promise<void> {
    const channel = await this.host.channel(this.principalChoice);
    await channel.notify(
      { jsonrpc: "2.0", method, params },
      { timeoutMs: options.timeoutMs ?? this.defaults.timeoutMs ?? this.host.spec.timeoutMs, headers: options.headers },
    );
  }

  /**
   * The `_meta` envelope this client sends with `options` (protocol version, capabilities,
   * client info, log level, progress token, extra entries).
   *
   * @example await client.raw("tools/list", { _meta: { ...client.meta(), extra: 1 } });
   */
  meta(options: CallOptions = {}): JsonObject {
    const o = mergeOptions(this.defaults, options) as TestClientOptions & CallOptions;
    const clientInfo = o.clientInfo === undefined ? TEST_CLIENT_INFO : o.clientInfo;
    return {
      [META.protocolVersion]: o.protocolVersion ?? PROTOCOL_VERSION,
      [META.clientCapabilities]: options.capabilities ?? this.defaults.capabilities ?? {},
      ...(clientInfo !== null && { [META.clientInfo]: { ...clientInfo } }),
      ...(o.logLevel !== undefined && { [META.logLevel]: o.logLevel }),
      ...(o.progressToken !== undefined && { progressToken: o.progressToken }),
      ...o.meta,
    };
  }

  /**
   * A client on the same boundary that declares other capabilities by default.
   *
   * @example const formOnly = client.withCapabilities({ elicitation: { form: {} } });
   */
  withCapabilities(capabilities: ClientCapabilities): TestClient {
    return new TestClient(this.host, { ...this.defaults, capabilities }, this.principalChoice);
  }

  /**
   * A client on the same server whose requests carry another principal: in-process a connection
   * of its own, over HTTP a listener or headers of its own, over stdio a process of its own.
   * Throws, saying what to configure, where the boundary cannot do it.
   *
   * `options.scopes` (in-process, and over HTTP on an app the kit listens on): every request is
   * authorized as a verified token granting exactly those scopes would be, so `@Scopes` checks and
   * list filtering apply, with no authorization server. Over HTTP that is a listener of its own
   * with `auth` (403 challenges and all); there the principal must be a string.
   *
   * @example const stolen = await round1.via(client.as("mallory")).answer({ color: accept({ color: "red" }) });
   * @example const reader = client.as("alice", { scopes: ["preferences:read"] });
   */
  as(principal: string | null, options: { scopes?: readonly string[] } = {}): TestClient {
    if (principal !== null && (typeof principal !== "string" || principal === ""))
      throw new TypeError("client.as: principal must be a non-empty string or null");
    const scopes = options.scopes;
    if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((s) => typeof s !== "string" || s === "" || /\s/.test(s))))
      throw new TypeError("client.as: scopes must be an array of scope strings without spaces");
    this.host.spec.checkPrincipal(principal, scopes);
    return new TestClient(this.host, this.defaults, scopes === undefined ? { principal } : { principal, scopes: [...scopes] });
  }

  /** Closes every connection, child process and listener this client family opened, and an app the kit built. */
  close(): Promise<void> {
    return this.host.close();
  }
}
