// Pins list-changed and resource-updated notifications triggered from application code, over HTTP
// (raw fetch on the subscriptions/listen SSE stream):
// - a component that injects ChangeNotifier announces a tool-list change from inside tools/call,
//   and the open stream receives it after the acknowledgement, tagged with the listen request's id;
// - each stream receives only the kinds it asked for (a prompts-only stream never sees tools);
// - app.changes reaches the same streams; resource updates reach only subscribers of that uri
//   (server/discover advertises resources.subscribe, without which the filter is not honoured; a
//   2025-era initialize is offered it too, as its session serves resources/subscribe);
// - one call reaches the streams of every listener of the app; a closed listener is detached and
//   notifying afterwards neither throws nor stops the others;
// - every message on the streams validates against the official wire schema.
import "reflect-metadata";
import { IsString } from "class-validator";
import { injectable } from "tsyringe";
import { Arg, ChangeNotifier, McpApp, Prompt, Resource, Tool, type HttpListener } from "../../src/index";
import { MemoryLogger } from "../../src/testing/index";
import { openListen, type ListenStream } from "../support/listen-stream";
import { meta, post, rpc } from "../support/raw-http";
import { validateServerMessage } from "../support/wire-schema";

class UriArgs {
  @IsString() uri!: string;
}

@injectable()
class Catalogue {
  constructor(private readonly changes: ChangeNotifier) {}

  @Tool({ description: "Announces a tool list change" })
  enable_beta() {
    this.changes.toolsChanged();
    return "beta enabled";
  }

  @Tool({ description: "Announces a prompt list change" })
  reload_prompts() {
    this.changes.promptsChanged();
    return "prompts reloaded";
  }

  @Tool({ description: "Announces an update of one resource" })
  touch(@Arg() args: UriArgs) {
    this.changes.resourceUpdated(args.uri);
    return `touched ${args.uri}`;
  }

  @Prompt({ description: "A prompt" })
  hello() {
    return "hello";
  }

  @Resource({ uri: "test://a", name: "a", mimeType: "text/plain" })
  a() {
    return "a";
  }
}

const LISTEN_META = "io.modelcontextprotocol/subscriptionId";

describe("subscriptions/listen notifications from application code (HTTP)", () => {
  let app: McpApp;
  let listener: HttpListener;
  const open: ListenStream[] = [];

  beforeAll(async () => {
    app = McpApp.create({
      components: [Catalogue],
      state: { secret: "listen-e2e-secret-0123456789abcdef-0123" },
      logger: new MemoryLogger(),
    });
    listener = await app.listen({ port: 0 });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => app.close());

  async function listen(id: number, notifications: Record<string, unknown>, url = listener.url): Promise<ListenStream> {
    const stream = await openListen(url, id, notifications);
    open.push(stream);
    expect([stream.status, stream.contentType]).toEqual([200, expect.stringContaining("text/event-stream")]);
    const ack = await next(stream);
    expect(ack).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: expect.objectContaining({ notifications, _meta: { [LISTEN_META]: id } }),
    });
    return stream;
  }

  async function next(stream: ListenStream): Promise<Record<string, unknown>> {
    const message = await stream.next();
    validateServerMessage(message, "subscriptions/listen");
    return message;
  }

  async function call(name: string, args: Record<string, unknown> = {}) {
    const r = await rpc(listener.url, "tools/call", { _meta: meta(), name, arguments: args });
    expect(r.status).toBe(200);
    expect(r.body!.result).toMatchObject({ resultType: "complete" });
  }

  it("delivers a tool-list change announced by a tool, tagged with the listen id", async () => {
    const stream = await listen(41, { toolsListChanged: true });
    await call("enable_beta");
    expect(await next(stream)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { [LISTEN_META]: 41 } },
    });
  });

  it("sends a stream only the kinds it asked for", async () => {
    const prompts = await listen(42, { promptsListChanged: true });
    const tools = await listen(43, { toolsListChanged: true });
    await call("enable_beta");
    await call("reload_prompts");
    // Delivery is in order: had the tool change leaked, it would come first.
    expect((await next(prompts)).method).toBe("notifications/prompts/list_changed");
    expect((await next(tools)).method).toBe("notifications/tools/list_changed");
  });

  it("reaches the same streams through app.changes", async () => {
    const stream = await listen(44, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    app.changes.promptsChanged();
    app.changes.resourcesChanged();
    app.changes.toolsChanged();
    expect([(await next(stream)).method, (await next(stream)).method, (await next(stream)).method]).toEqual([
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
      "notifications/tools/list_changed",
    ]);
  });

  it("advertises list changes and resource subscriptions in server/discover", async () => {
    const r = await rpc(listener.url, "server/discover", { _meta: meta() });
    const capabilities = (r.body!.result as { capabilities: Record<string, unknown> }).capabilities;
    expect(capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
    });
  });

  it("offers resources.subscribe to a 2025-era initialize: its session serves resources/subscribe", async () => {
    const r = await post(
      listener.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      },
      { "content-type": "application/json", accept: "application/json, text/event-stream" },
    );
    expect(r.status).toBe(200);
    expect((r.body!.result as { capabilities: Record<string, unknown> }).capabilities.resources).toEqual({
      listChanged: true,
      subscribe: true,
    });
  });

  it("sends a resource update only to subscribers of that uri", async () => {
    const stream = await listen(45, { resourceSubscriptions: ["test://a"] });
    await call("touch", { uri: "test://other" });
    await call("touch", { uri: "test://a" });
    expect(await next(stream)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "test://a", _meta: { [LISTEN_META]: 45 } },
    });
  });

  it("reaches every listener of the app, and a closed listener is left out", async () => {
    const second = await app.listen({ port: 0 });
    const third = await app.listen({ port: 0 });
    const onFirst = await listen(46, { toolsListChanged: true });
    const onSecond = await listen(47, { toolsListChanged: true }, second.url);
    await listen(48, { toolsListChanged: true }, third.url);
    await call("enable_beta");
    expect((await next(onFirst)).method).toBe("notifications/tools/list_changed");
    expect((await next(onSecond)).method).toBe("notifications/tools/list_changed");
    await third.close();
    expect(() => app.changes.toolsChanged()).not.toThrow();
    expect((await next(onFirst)).method).toBe("notifications/tools/list_changed");
    expect((await next(onSecond)).method).toBe("notifications/tools/list_changed");
    await second.close();
  });
});
