// Pins how roundtrip-mcp/testing clients are built and what they refuse:
// - from components the kit builds the app (MemoryLogger with the precise state rejection reasons,
//   a test clock behind client.clock) and closes it with the client; a closed client refuses requests
// - the clock is refused with a reason when the kit does not control it (a ready app without
//   { clock }, a state with its own now, stdio); the app option is refused for a ready app
// - client.app is the app served (typed McpApp), refused with a reason for a URL; client.logger
//   is its MemoryLogger, refused naming the logger the app has instead
// - flow readers refuse what does not fit the status, naming what the flow holds instead; a
//   function answer for a key that was not asked is refused; answers may be sent before being
//   asked; _meta in request params joins the envelope on every round; clientInfo can be left out
// - HTTP: the required headers on every round, Mcp-Param-* mirrored from x-mcp-header (and -32020
//   without it), JSON and SSE responses, a URL with its own authenticator and principalHeaders, a
//   401 without id as an error status, as() refused for a URL without principalHeaders
// - stdio: non-JSON output and server requests are unexpected messages, a server that exits or
//   never answers gives a clear rejection (exit code, stderr, timeout), a command that cannot be
//   spawned is refused at creation, as() needs principalEnv
import "reflect-metadata";
import { IsString } from "class-validator";
import { Arg, JSONSchema, Tool } from "roundtrip-mcp";
import {
  accept,
  createHttpTestClient,
  createStdioTestClient,
  createTestClient,
  createTestClock,
  MemoryLogger,
  SilentLogger,
  tamper,
  type TestClient,
} from "roundtrip-mcp/testing";
import { INTERACTIVE_COMPONENTS, INTERACTIVE_SECRET, createInteractiveApp } from "./fixtures/interactive-app";
import { FEATURE_COMPONENTS } from "./fixtures/feature-app";

const FORM = { elicitation: {} };

class RouteArgs {
  @IsString() @JSONSchema({ "x-mcp-header": "Region" }) region!: string;
}

class Routing {
  @Tool({ description: "Routes by region" })
  route(@Arg() args: RouteArgs) {
    return `routed to ${args.region}`;
  }
}

function rejectionReasons(client: TestClient): unknown[] {
  return client.logger.entries.filter((e) => e.message === "requestState rejected").map((e) => e.fields?.reason);
}

describe("a client built from components", () => {
  it("builds the app with a memory logger and a test clock, and closes it", async () => {
    const client = await createTestClient(INTERACTIVE_COMPONENTS, { capabilities: FORM });
    expect(client.boundary).toBe("in-process");
    expect(client.logger).toBeInstanceOf(MemoryLogger);
    const round1 = await client.callTool("choose_style");
    await round1.withState(tamper(round1.requestState!)).answer({ color: accept({ color: "red" }) });
    await round1.as("mallory").answer({ color: accept({ color: "red" }) });
    client.clock.advance(300);
    await round1.answer({ color: accept({ color: "red" }) });
    expect(rejectionReasons(client)).toEqual(["bad-mac", "other-principal", "expired"]);
    await client.close();
    await expect(client.callTool("choose_style")).rejects.toThrow("this test client is closed");
  });

  it("builds the HTTP variant the same way", async () => {
    const client = await createHttpTestClient(INTERACTIVE_COMPONENTS, { capabilities: FORM });
    expect(client.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const round1 = await client.callTool("choose_style");
    client.clock.advance(300);
    expect((await round1.answer({ color: accept({ color: "red" }) })).error.code).toBe(-32602);
    expect(rejectionReasons(client)).toEqual(["expired"]);
    await client.close();
  });

  it("uses the app option, and a state with its own clock needs the clock option", async () => {
    const client = await createTestClient(FEATURE_COMPONENTS, { app: { name: "named", localPrincipal: "local" } });
    expect((await client.request("server/discover")).result._meta).toEqual({
      "io.modelcontextprotocol/serverInfo": { name: "named", version: "0.0.0" },
    });
    expect((await client.callTool("whoami")).result.structuredContent).toMatchObject({ principal: "local" });
    await client.close();

    const own = createTestClock();
    const withNow = await createTestClient(FEATURE_COMPONENTS, { app: { state: { secret: INTERACTIVE_SECRET, now: own.now } } });
    expect(() => withNow.clock).toThrow(/own now\(\); pass the matching test clock as the clock option/);
    await withNow.close();
    const withClock = await createTestClient(FEATURE_COMPONENTS, {
      app: { state: { secret: INTERACTIVE_SECRET, now: own.now } },
      clock: own,
    });
    expect(withClock.clock).toBe(own);
    await withClock.close();
  });

  it("refuses the clock for a ready app built without one, and the app option for a ready app", async () => {
    const app = createInteractiveApp({ logger: new SilentLogger() });
    const client = await createTestClient(app);
    expect(client.app).toBe(app);
    expect(() => client.clock).toThrow(/ready McpApp; build it with a test clock/);
    expect(() => client.logger).toThrow(
      "client.logger: the app logs to a SilentLogger; build it with logger: new MemoryLogger() to read its entries",
    );
    await expect(createTestClient(app, { app: { name: "x" } })).rejects.toThrow(TypeError);
    await client.close();
    // The kit closes only what it opened: the app still serves new connections.
    const again = await createTestClient(app);
    expect((await again.request("tools/list")).status).toBe("complete");
    await again.close();
    await app.close();
  });
});

describe("flows", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(INTERACTIVE_COMPONENTS, { capabilities: FORM });
  });
  afterAll(() => client.close());

  it("refuses readers that do not fit the status, saying what the flow holds", async () => {
    const round1 = await client.callTool("book_trip", { destination: "Oslo" });
    expect(() => round1.result).toThrow(
      'flow.result needs a flow that is complete, but tools/call book_trip, round 1 asked "traveller", "seats" with requestState',
    );
    expect(() => round1.error).toThrow("flow.error needs a flow that is error");
    expect(() => round1.asked("seat")).toThrow('asked("seat"): the round asked "traveller", "seats"');
    await expect(round1.answer({ seat: () => accept({ count: 1 }) })).rejects.toThrow('answer: "seat" was not asked');
    const done = await client.callTool("optional_note", {}, {});
    const complete = await done.answer({ note: accept({ text: "x" }) });
    expect(() => complete.inputRequired).toThrow("is complete");
    expect(() => complete.asked("note")).toThrow('asked("note"): tools/call optional_note, round 2 is complete');
    expect(complete.inputRequests).toEqual({});
    await expect(complete.retry()).rejects.toThrow("retry: nothing to answer");
  });

  it("sends answers before being asked, and keeps request-level _meta on every round", async () => {
    const early = await client.request("tools/call", {
      name: "ask_name",
      arguments: {},
      inputResponses: { user_name: accept({ name: "Ada" }) },
    });
    expect(early.rounds).toBe(1);
    expect(early.text).toBe("Hello, Ada!");
    const traced = await client.request("tools/call", { name: "choose_style", arguments: {}, _meta: { traceparent: "t1" } });
    const next = await traced.answer({ color: accept({ color: "red" }) });
    expect(next.history.map((r) => r.request.params!._meta!.traceparent)).toEqual(["t1", "t1"]);
    expect(next.params).toEqual({ name: "choose_style", arguments: {} });
  });

  it("leaves clientInfo out on request, and sets the protocol version", async () => {
    const anonymous = await createTestClient(FEATURE_COMPONENTS, { clientInfo: null, protocolVersion: "2026-07-28" });
    const round = await anonymous.exchange("tools/list", { _meta: anonymous.meta() });
    expect(round.request.params!._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    expect(round.response.result!.resultType).toBe("complete");
    await anonymous.close();
  });
});

describe("the HTTP boundary", () => {
  it("sends the required headers on every round and mirrors x-mcp-header arguments", async () => {
    const client = await createHttpTestClient([...INTERACTIVE_COMPONENTS, Routing], { capabilities: FORM });
    const round1 = await client.callTool("choose_style");
    const done = await round1.answer({ color: accept({ color: "red" }) });
    for (const round of done.history) {
      expect(round.http!.status).toBe(200);
      expect(round.http!.requestHeaders).toMatchObject({
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "choose_style",
        accept: "application/json, text/event-stream",
      });
    }
    const routed = await client.callTool("route", { region: "eu west" });
    expect(routed.text).toBe("routed to eu west");
    expect(routed.round.http!.requestHeaders["mcp-param-region"]).toBe("eu west");
    const missing = await client.callTool("route", { region: "eu" }, { headers: { "mcp-param-region": undefined } });
    expect(missing.error.code).toBe(-32020);
    expect(missing.round.http!.status).toBe(400);
    await client.close();
  });

  it("reads SSE responses with notifications before the result", async () => {
    const client = await createHttpTestClient(FEATURE_COMPONENTS);
    const flow = await client.callTool("work", {}, { progressToken: 7 });
    expect(flow.round.http!.headers["content-type"]).toContain("text/event-stream");
    expect(flow.progress.map((p) => p.progress)).toEqual([1, 2]);
    expect(flow.text).toBe("progress:true log:none");
    await client.close();
  });

  it("talks to a URL with its own authenticator, acting as principals through headers", async () => {
    const app = createInteractiveApp({ state: { secret: INTERACTIVE_SECRET } });
    const listener = await app.listen({ authenticate: (req) => (req.headers.authorization ?? "").replace("Bearer ", "") || null });
    const anonymous = await createHttpTestClient(listener.url, { capabilities: FORM });
    expect(() => anonymous.app).toThrow(/runs in another process \(at a URL\)/);
    expect(() => anonymous.as("alice")).toThrow(/principalHeaders/);
    expect(() => anonymous.clock).toThrow(/keeps its own clock/);
    const refused = await anonymous.callTool("choose_style");
    expect(refused.error).toEqual({ code: -32000, message: "Unauthorized" });
    expect(refused.round.http!.status).toBe(401);

    const client = await createHttpTestClient(listener.url, {
      capabilities: FORM,
      headers: { authorization: "Bearer alice" },
      principalHeaders: (principal) => ({ authorization: `Bearer ${principal}` }),
    });
    const round1 = await client.callTool("choose_style");
    expect(round1.status).toBe("input_required");
    expect((await round1.as("mallory").answer({ color: accept({ color: "red" }) })).error.code).toBe(-32602);
    expect((await round1.answer({ color: accept({ color: "red" }) })).keys).toEqual(["style"]);
    await Promise.all([anonymous.close(), client.close()]);
    await app.close();
  });
});

describe("the stdio boundary", () => {
  const script = (body: string) => ({ command: process.execPath, args: ["-e", body] });

  it("reports output that is not an answer as unexpected messages", async () => {
    const client = await createStdioTestClient(
      script(`
        process.stdout.write("not json\\n");
        process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 99, method: "elicitation/create", params: {} }) + "\\n");
        require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
          const m = JSON.parse(line);
          process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: 1 } }) + "\\n");
          process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { resultType: "complete", echo: m.params } }) + "\\n");
        });
      `),
    );
    const flow = await client.request("tools/list");
    expect(flow.result.echo).toEqual({ _meta: client.meta() });
    expect(flow.logs).toEqual([{ level: "info", data: 1 }]);
    expect(client.unexpectedMessages).toEqual([
      { unparsable: "not json" },
      { jsonrpc: "2.0", id: 99, method: "elicitation/create", params: {} },
    ]);
    expect(() => client.as("alice")).toThrow(/principalEnv/);
    await client.close();
  });

  it("rejects clearly when the server exits or never answers", async () => {
    const crashing = await createStdioTestClient(
      script(`process.stdin.once("data", () => { process.stderr.write("boom"); process.exit(3); });`),
    );
    await expect(crashing.request("tools/list")).rejects.toThrow(
      /the stdio connection closed \(server exited with code 3; stderr: boom\) before tools\/list was answered/,
    );
    await crashing.close();
    await expect(createStdioTestClient({ command: "/nonexistent/mcp-server" })).rejects.toThrow(/ENOENT/);
    const silent = await createStdioTestClient(script(`process.stdin.resume();`), { timeoutMs: 200 });
    await expect(silent.request("tools/list")).rejects.toThrow("no response to tools/list (id 1) within 200 ms over stdio");
    await silent.close();
  });
});
