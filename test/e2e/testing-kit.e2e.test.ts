// Pins the mechanics of roundtrip-mcp/testing (what Flow, answer, run, raw, as, the clock and the
// tamper helpers do) against the interactive and feature fixture apps, the same client API over
// in-process, stdio (a child process) and HTTP. The framework behaviour these flows run into
// (decline policies, state refusals, sampling, state-only rounds) is pinned by
// interactive.e2e.test.ts and the unit suites, not here again.
// - round by round: status, keys, asked(key) message / kind / choices / fields, answer() re-sends
//   the original params with a new id, only this round's answers and the exact previous state;
//   rounds counts requests; history keeps the exact wire messages; rounds are immutable
// - automatic mode: client.run and flow.run with a key map and with functions of what was asked;
//   the rounds count; a script without the asked key and a flow that never ends both fail clearly
// - readResource and getPrompt flows; flow.text
// - withState: a tampered state (every tamper mode) is sent as is and refused; no state is sent as none
// - as(): a flow continued as another principal, a client acting as one (in-process, stdio, HTTP)
// - the clock: advancing it expires state (in-process and HTTP); refused over stdio
// - per-round and per-client capabilities (withCapabilities), and the hint of a -32021 reader error
// - inputs of every kind (sampling, roots, URL) answered with the answer builders; retry() of a
//   state-only round
// - raw: the exact JSON-RPC response, the envelope added or not, exchange() returns the exact request
// - notifications (progress, log messages) recorded on the round; JSON-RPC errors are a status,
//   never a rejection; per-call capabilities; the principal seen by the server by default and with as()
// - no unexpected messages from the server on any boundary
import { INVALID_STATE_MESSAGE } from "roundtrip-mcp";
import { accept, clientRoots, modelReply, tamper, type Flow, type TestClient } from "roundtrip-mcp/testing";
import { KIT_BOUNDARIES, kitClient } from "../support/kit-clients";
import { INTERACTIVE_SECRET, createInteractiveApp } from "./fixtures/interactive-app";
import { TEST_SECRET, createFeatureApp } from "./fixtures/feature-app";

const FORM = { elicitation: {} };
const ALL = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "interactive-app", version: "1.0.0" } };

describe.each(KIT_BOUNDARIES)("the testing kit over %s (interactive app)", (boundary) => {
  let client: TestClient;

  beforeAll(async () => {
    client = await kitClient(boundary, "interactive", createInteractiveApp, INTERACTIVE_SECRET, { capabilities: FORM });
  });
  afterAll(async () => {
    await client.close();
    if (boundary !== "stdio") await client.app.close();
  });
  afterEach(() => expect(client.unexpectedMessages).toEqual([]));

  it("drives a three-round flow round by round", async () => {
    const round1 = await client.callTool("choose_style");
    expect(round1.status).toBe("input_required");
    expect(round1.rounds).toBe(1);
    expect(round1.keys).toEqual(["color"]);
    expect(round1.asked("color")).toMatchObject({
      kind: "form",
      message: "Pick a colour",
      fields: ["color"],
      choices: ["red", "green", "blue"],
    });
    expect(typeof round1.requestState).toBe("string");

    const round2 = await round1.answer({ color: accept({ color: "blue" }) });
    expect(round2.asked("style").message).toBe("Which blue?");
    expect(round2.asked("style").choices).toEqual(["navy", "sky"]);
    expect(round2.requestState).not.toBe(round1.requestState);

    const done = await round2.answer({ style: (asked) => accept({ style: asked.choices![1]! }) });
    expect(done.status).toBe("complete");
    expect(done.result.structuredContent).toEqual({ color: "blue", style: "sky" });
    expect(done.rounds).toBe(3);
    expect(done.requestState).toBeUndefined();

    // Each retry: a new id, the original params, only this round's answers, the exact state.
    const sent = done.history.map((r) => r.request);
    expect(new Set(sent.map((r) => r.id)).size).toBe(3);
    for (const request of sent)
      expect(request.params).toMatchObject({
        name: "choose_style",
        arguments: {},
        _meta: { "io.modelcontextprotocol/clientCapabilities": FORM },
      });
    expect(sent[0]!.params).not.toHaveProperty("inputResponses");
    expect(sent[1]!.params).toMatchObject({
      inputResponses: { color: { action: "accept", content: { color: "blue" } } },
      requestState: round1.requestState,
    });
    expect(sent[2]!.params!.inputResponses).toEqual({ style: { action: "accept", content: { style: "sky" } } });
    expect(sent[2]!.params!.requestState).toBe(round2.requestState);
    // Rounds are immutable: the first can be answered again, differently.
    expect(
      (await (await round1.answer({ color: accept({ color: "red" }) })).answer({ style: accept({ style: "brick" }) })).result
        .structuredContent,
    ).toEqual({ color: "red", style: "brick" });
  });

  it("runs a flow to completion from a script and reports the rounds", async () => {
    const auto = await client.run(
      "tools/call",
      { name: "choose_style", arguments: {} },
      { color: accept({ color: "green" }), style: (asked) => accept({ style: asked.choices![0]! }) },
    );
    expect(auto.status).toBe("complete");
    expect(auto.result.structuredContent).toEqual({ color: "green", style: "forest" });
    expect(auto.rounds).toBe(3);

    const trip = await client.callTool("book_trip", { destination: "Oslo" });
    expect(trip.keys).toEqual(["traveller", "seats"]);
    const fromRound1 = await trip.run((asked) =>
      asked.key === "traveller" ? accept({ name: "Ada", email: "ada@example.com" }) : accept({ count: 2 }),
    );
    expect(fromRound1.rounds).toBe(2);
    expect(fromRound1.result.structuredContent).toEqual({ summary: "Ada <ada@example.com> x2 to Oslo" });
  });

  it("fails a scripted run that lacks an answer or never ends", async () => {
    await expect(client.run("tools/call", { name: "choose_style", arguments: {} }, { color: accept({ color: "red" }) })).rejects.toThrow(
      'run: round 2 asked "style" ("Which red?") and the script has no answer for it',
    );
    const endless = client.run(
      "tools/call",
      { name: "connect_account", arguments: { account: "never" } },
      { consent: accept() },
      { capabilities: ALL, maxRounds: 4 },
    );
    await expect(endless).rejects.toThrow('run: tools/call still needs input after 4 rounds (maxRounds 4); last round asked "consent"');
  });

  it("reads a resource and gets a prompt that ask", async () => {
    const read = await client.readResource("profile://ada/card");
    expect(read.asked("color").message).toBe("Card colour?");
    const card = await read.answer({ color: accept({ color: "red" }) });
    expect(card.result).toMatchObject({
      contents: [{ uri: "profile://ada/card", mimeType: "text/plain", text: "card ada in red" }],
      ttlMs: 5000,
      cacheScope: "private",
    });
    expect(card.text).toBe("card ada in red");

    const prompt = await client.getPrompt("interview");
    const rendered = await prompt.answer({ confirm: accept({ answer: "yes" }) });
    expect(rendered.result.messages).toEqual([{ role: "user", content: { type: "text", text: "Interview confirmed: yes" } }]);
    expect(rendered.text).toBe("Interview confirmed: yes");
  });

  it("sends a tampered state as is (refused in every mode), and no state at all", async () => {
    const round1 = await client.callTool("choose_style");
    for (const mode of ["flip", "append", "truncate"] as const) {
      const tampered = tamper(round1.requestState!, mode);
      const forged = await round1.withState(tampered).answer({ color: accept({ color: "red" }) });
      expect(forged.round.request.params!.requestState).toBe(tampered);
      expect(forged.status).toBe("error");
      expect(forged.error).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
      expect(forged.rounds).toBe(2);
    }
    const round2 = await round1.answer({ color: accept({ color: "red" }) });
    const stateless = await round2.withState(undefined).answer({ style: accept({ style: "brick" }) });
    expect(stateless.round.request.params).not.toHaveProperty("requestState");
    expect(stateless.keys).toEqual(["color"]);
  });

  it("refuses state presented by another principal", async () => {
    const round1 = await client.callTool("choose_style");
    const stolen = await round1.as("mallory").answer({ color: accept({ color: "red" }) });
    expect(stolen.error).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
    // The same principal on its own connection continues.
    const alice = client.as("alice");
    const own = await (await alice.callTool("choose_style")).answer({ color: accept({ color: "green" }) });
    expect(own.asked("style").message).toBe("Which green?");
    expect((await own.as("mallory").answer({ style: accept({ style: "mint" }) })).error.code).toBe(-32602);
    expect((await own.answer({ style: accept({ style: "mint" }) })).result.structuredContent).toEqual({ color: "green", style: "mint" });
  });

  it("expires state when the clock moves past its lifetime", async () => {
    if (boundary === "stdio") {
      expect(() => client.clock).toThrow(/child process/);
      return;
    }
    const round1 = await client.callTool("choose_style");
    client.clock.advance(299);
    expect((await round1.answer({ color: accept({ color: "red" }) })).status).toBe("input_required");
    client.clock.advance(1); // exactly the default 300 s lifetime: expired
    const expired = await round1.answer({ color: accept({ color: "red" }) });
    expect(expired.error).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
  });

  it("refuses a round whose capabilities were dropped", async () => {
    const round1 = await client.callTool("book_trip", { destination: "Lima" });
    const dropped = await round1.answer({ traveller: accept({ name: "A", email: "a@example.com" }) }, { capabilities: {} });
    // The round went out with the round's capabilities ({}), and the server refused it (payload: admission.test.ts).
    expect(dropped.error.code).toBe(-32021);
    expect(dropped.round.request.params!._meta).toMatchObject({ "io.modelcontextprotocol/clientCapabilities": {} });
    expect(() => dropped.result).toThrow(/failed: -32021 .*declare the capabilities/);
    // The round option applied to that round only; the flow's own capabilities still hold.
    expect((await round1.answer({ traveller: accept({ name: "A", email: "a@example.com" }) })).keys).toEqual(["seats"]);
    expect((await client.withCapabilities({}).callTool("book_trip", { destination: "Lima" })).error.code).toBe(-32021);
  });

  it("reads sampling, roots and URL input requests, and answers them with the builders", async () => {
    const round1 = await client.callTool("sample_and_roots", {}, { capabilities: ALL });
    expect(round1.inputs.map((i) => [i.key, i.kind])).toEqual([
      ["capital", "sampling"],
      ["roots", "roots"],
    ]);
    const done = await round1.answer({ capital: modelReply("Paris"), roots: clientRoots("file:///home") });
    expect(done.text).toBe("capital: Paris; roots: file:///home");

    const consent = await client.callTool("connect_account", { account: "kit" }, { capabilities: ALL });
    expect(consent.asked("consent")).toMatchObject({
      kind: "url",
      url: "https://accounts.example.com/connect",
      message: "Connect your account",
    });
    const again = await consent.answer({ consent: accept() });
    expect(again.keys).toEqual(["consent"]);
    expect(again.round.request.params!.inputResponses).toEqual({ consent: { action: "accept" } });
  });

  it("continues a state-only round with retry()", async () => {
    const first = await client.callTool("reset", {}, { capabilities: {} });
    expect(first.status).toBe("input_required");
    expect(first.keys).toEqual([]);
    expect(first.inputRequired).not.toHaveProperty("inputRequests");
    const done = await first.retry();
    expect(done.text).toBe("done after reset");
    expect(done.round.request.params).not.toHaveProperty("inputResponses");
    expect(done.round.request.params!.requestState).toBe(first.requestState);
  });

  it("returns the exact JSON-RPC response of a raw request", async () => {
    const raw = await client.raw("tools/call", { name: "ask_name", arguments: {} }, { id: `raw-${boundary}` });
    expect(raw).toEqual({
      jsonrpc: "2.0",
      id: `raw-${boundary}`,
      result: {
        resultType: "input_required",
        inputRequests: {
          user_name: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Your name?",
              requestedSchema: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] },
            },
          },
        },
        _meta: SERVER_INFO,
      },
    });
    const answered = await client.raw("tools/call", {
      name: "ask_name",
      arguments: {},
      inputResponses: { user_name: accept({ name: "Ada" }) },
    });
    expect(answered.result).toEqual({ resultType: "complete", content: [{ type: "text", text: "Hello, Ada!" }], _meta: SERVER_INFO });
    const bare = await client.raw("tools/list", { _meta: undefined });
    expect(bare.error).toMatchObject({ code: -32602 });
    const round = await client.exchange("tools/list", {
      _meta: client.meta({ meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } }),
    });
    expect(round.request.params!._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": FORM,
      "io.modelcontextprotocol/clientInfo": { name: "roundtrip-mcp-testing", version: "1.0.0" },
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    });
    expect(round.response.result!.resultType).toBe("complete");
  });
});

describe.each(KIT_BOUNDARIES)("the testing kit over %s (feature app)", (boundary) => {
  let client: TestClient;

  beforeAll(async () => {
    client = await kitClient(boundary, "feature", createFeatureApp, TEST_SECRET);
  });
  afterAll(async () => {
    await client.close();
    if (boundary !== "stdio") await client.app.close();
  });
  afterEach(() => expect(client.unexpectedMessages).toEqual([]));

  it("records progress and log notifications on the round", async () => {
    const flow = await client.callTool("work", {}, { progressToken: "p1", logLevel: "info" });
    expect(flow.text).toBe("progress:true log:info");
    expect(flow.progress).toEqual([
      { progressToken: "p1", progress: 1, total: 2, message: "half" },
      { progressToken: "p1", progress: 2, total: 2 },
    ]);
    expect(flow.logs).toEqual([{ level: "info", data: { step: "done" } }]);
    expect(flow.notifications.map((n) => n.method)).toEqual(["notifications/progress", "notifications/message", "notifications/progress"]);
    expect(client.notifications.slice(-3)).toEqual(flow.notifications);
    const quiet = await client.callTool("work");
    expect(quiet.text).toBe("progress:false log:none");
    expect(quiet.notifications).toEqual([]);
  });

  it("shows a JSON-RPC error as the flow's status", async () => {
    const failed: Flow = await client.callTool("typed_error");
    expect(failed.status).toBe("error");
    expect(failed.error).toEqual({ code: -33050, message: "Quota exceeded", data: { retryAfter: 30 } });
    expect(() => failed.result).toThrow(
      'flow.result needs a flow that is complete, but tools/call typed_error, round 1 failed: -33050 "Quota exceeded" data {"retryAfter":30}',
    );
    await expect(failed.answer({})).rejects.toThrow("answer: nothing to answer; tools/call typed_error, round 1 failed");
  });

  it("declares capabilities per call and carries the principal", async () => {
    const plain = await client.callTool("whoami");
    expect(plain.result.structuredContent).toEqual({ method: "tools/call", principal: null, capabilities: {} });
    const sampler = await client.callTool("whoami", {}, { capabilities: { sampling: {} } });
    expect(sampler.result.structuredContent).toMatchObject({ capabilities: { sampling: {} } });
    const alice = await client.as("alice").callTool("whoami");
    expect(alice.result.structuredContent).toMatchObject({ principal: "alice" });
    expect(client.as("alice").principal).toBe("alice");
    expect(client.principal).toBeUndefined();
  });
});
