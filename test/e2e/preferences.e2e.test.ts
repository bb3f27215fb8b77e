// Pins the preferences sample (sample/preferences), driven in-process with roundtrip-mcp/testing.
// The compiled sample over stdio and HTTP is driven round by round, every round checked, by the
// demo check (preferences-demo.test.ts); the framework behaviour it relies on (invalid answers,
// capability refusals, state refusals) is pinned by interactive.e2e.test.ts.
// - descriptors: three read-only, argument-less tools (two with an outputSchema), the resource
//   template preferences://{profile}/summary, the prompt preferences_prompt
// - choose_preferences takes exactly three requests: colour (red/green/blue) first, then a style
//   whose message and choices depend on the colour, then structuredContent { color, style } + text
// - the resource and the prompt ask the very same two questions (identical input requests) and
//   complete with the profile and answers in text / a user message built from the answers
// - the requestState changes every round; the final result carries neither requestState nor inputRequests
// - preview_theme asks URL-mode consent for a local address (with an elicitationId); accept, decline and cancel each
//   complete with the consent recorded and verified: false; a client that declared only form
//   elicitation gets -32021 naming elicitation.url, also when it sends a URL consent answer up
//   front (an answer to a question it could not have been asked)
// - reset_preferences: input_required with only a requestState (no inputRequests key on the wire),
//   its retry completes with no state
// - every server message validates against the official wire schema; nothing unexpected arrives
import { accept, createTestClient, type Flow, type Round, type TestClient, type WireResult } from "roundtrip-mcp/testing";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import { MemoryLogger } from "../../src/testing/index";
import { validateServerMessage } from "../support/wire-schema";

const STYLES: Record<string, string[]> = {
  red: ["crimson", "coral", "brick"],
  green: ["forest", "mint", "olive"],
  blue: ["navy", "sky", "teal"],
};
const CAPABILITIES = { elicitation: { form: {}, url: {} } };

const COLOR_REQUEST = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Which colour do you prefer?",
    requestedSchema: {
      type: "object",
      properties: { color: { type: "string", title: "Colour", enum: ["red", "green", "blue"] } },
      required: ["color"],
    },
  },
};

const styleRequest = (color: string) => ({
  method: "elicitation/create",
  params: {
    mode: "form",
    message: `Which ${color} style?`,
    requestedSchema: {
      type: "object",
      properties: { style: { type: "string", title: "Style", enum: STYLES[color] } },
      required: ["style"],
    },
  },
});

/** Starts `method` and answers colour, then style: the three rounds of the workflow. */
async function chooseAll<R extends WireResult>(start: Promise<Flow<R>>, color: string, style: string): Promise<Flow<R>> {
  const first = await start;
  const second = await first.answer({ color: accept({ color }) });
  return second.answer({ style: accept({ style }) });
}

describe("the preferences sample", () => {
  let client: TestClient;
  const violations: string[] = [];
  let validated = 0;
  const validate = (round: Round) => {
    validated++;
    try {
      validateServerMessage(round.response, round.request.method);
      for (const notification of round.notifications) validateServerMessage(notification);
    } catch (error) {
      violations.push((error as Error).message);
    }
  };

  beforeAll(async () => {
    client = await createTestClient(createPreferencesApp({ logger: new MemoryLogger() }), {
      capabilities: CAPABILITIES,
      onRound: validate,
    });
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });
  afterEach(() => {
    expect(validated).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    expect(client.unexpectedMessages).toEqual([]);
  });

  it("publishes read-only tools, the summary template and the prompt", async () => {
    const { tools } = (await client.request("tools/list")).result as {
      tools: { name: string; annotations?: { readOnlyHint?: boolean }; inputSchema: unknown; outputSchema?: unknown }[];
    };
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint, t.inputSchema])).toEqual([
      ["choose_preferences", true, { type: "object", additionalProperties: false }],
      ["preview_theme", true, { type: "object", additionalProperties: false }],
      ["reset_preferences", true, { type: "object", additionalProperties: false }],
      ["show_theme", true, expect.objectContaining({ required: ["color", "style"] })],
      ["style_options", true, expect.objectContaining({ required: ["color"] })],
    ]);
    expect(tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name)).toEqual([
      "choose_preferences",
      "preview_theme",
      "show_theme",
    ]);
    expect(tools.find((t) => t.name === "choose_preferences")!.outputSchema).toEqual({
      type: "object",
      properties: { color: { type: "string", enum: ["red", "green", "blue"] }, style: { type: "string" } },
      required: ["color", "style"],
      additionalProperties: false,
    });
    expect((await client.request("resources/templates/list")).result.resourceTemplates).toEqual([
      {
        uriTemplate: "preferences://{profile}/summary",
        name: "preferences-summary",
        description: "A profile's preferences, asked for on reading",
        mimeType: "text/plain",
      },
    ]);
    expect((await client.request("prompts/list")).result.prompts).toEqual([
      { name: "preferences_prompt", description: "Asks your preferences and turns them into a request for a theme", arguments: [] },
    ]);
  });

  it.each(["red", "green", "blue"])("asks colour %s, then that colour's styles, and completes in three requests", async (color) => {
    const style = STYLES[color]![1]!; // each colour offers two styles
    const round1 = await client.callTool("choose_preferences");
    expect(round1.inputRequests).toEqual({ color: COLOR_REQUEST });
    expect(round1.asked("color").choices).toEqual(["red", "green", "blue"]);
    const round2 = await round1.answer({ color: accept({ color }) });
    expect(round2.inputRequests).toEqual({ style: styleRequest(color) });
    expect(round2.asked("style").choices).toEqual(STYLES[color]);
    expect(typeof round1.requestState).toBe("string");
    expect(round2.requestState).not.toBe(round1.requestState);
    const done = await round2.answer({ style: accept({ style }) });
    expect(done.rounds).toBe(3);
    expect(done.status).toBe("complete");
    expect(done.result).not.toHaveProperty("requestState");
    expect(done.result).not.toHaveProperty("inputRequests");
    expect(done.result.structuredContent).toEqual({ color, style });
    expect(done.result.content).toEqual([{ type: "text", text: `Preferences chosen: ${color} / ${style}` }]);
  });

  it("reads the summary resource through the same questions", async () => {
    const uri = "preferences://home/summary";
    const done = await chooseAll(client.readResource(uri), "blue", "teal");
    const [first, second] = done.history.map((r) => r.response.result!);
    expect(first!.inputRequests).toEqual({ color: COLOR_REQUEST });
    expect(second!.inputRequests).toEqual({ style: styleRequest("blue") });
    for (const interim of [first, second]) {
      expect(interim).not.toHaveProperty("ttlMs");
      expect(interim).not.toHaveProperty("cacheScope");
    }
    expect(done.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    expect(done.result.contents).toEqual([{ uri, mimeType: "text/plain", text: "Preferences for profile home: blue / teal" }]);
    expect(done.rounds).toBe(3);
  });

  it("renders the prompt through the same questions", async () => {
    const done = await chooseAll(client.getPrompt("preferences_prompt"), "red", "brick");
    const [first, second] = done.history.map((r) => r.response.result!);
    expect(first!.inputRequests).toEqual({ color: COLOR_REQUEST });
    expect(second!.inputRequests).toEqual({ style: styleRequest("red") });
    expect(done.result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Suggest a colour theme for me. My preferences: red / brick." } },
    ]);
    expect(done.rounds).toBe(3);
  });

  it.each(["accept", "decline", "cancel"] as const)("records URL consent %s without verifying the outside step", async (action) => {
    const round1 = await client.callTool("preview_theme");
    expect(round1.inputRequests).toEqual({
      consent: {
        method: "elicitation/create",
        params: {
          mode: "url",
          message: "Open the theme preview in your browser?",
          url: "http://localhost/preview?theme=current",
          elicitationId: expect.stringMatching(/^[\w-]{22}$/),
        },
      },
    });
    expect(round1.asked("consent")).toMatchObject({ kind: "url", url: "http://localhost/preview?theme=current" });
    const last = await round1.answer({ consent: { action } });
    expect(last.status).toBe("complete");
    expect(last.result.isError).toBeUndefined();
    expect(last.result.structuredContent).toEqual({ consent: action, verified: false });
    expect(last.text).toBe(`Consent: ${action}. Preview not verified: nothing was fetched or opened.`);
  });

  it.each([
    ["asked", {}],
    ["answered up front", { inputResponses: { consent: { action: "accept" } } }],
  ])("refuses preview_theme to a form-only client (%s) with -32021", async (_how, retry) => {
    const formOnly = client.withCapabilities({ elicitation: { form: {} } });
    const flow = await formOnly.request("tools/call", { name: "preview_theme", arguments: {}, ...retry });
    expect(flow.status).toBe("error");
    expect([flow.error.code, flow.error.data]).toEqual([-32021, { requiredCapabilities: { elicitation: { url: {} } } }]);
  });

  it("continues reset_preferences from a state-only round and carries nothing further", async () => {
    const first = await client.callTool("reset_preferences");
    const { _meta, ...bare } = first.inputRequired;
    expect(bare).toEqual({ resultType: "input_required", requestState: expect.any(String) });
    const last = await first.retry();
    expect(last.status).toBe("complete");
    expect(last.result).not.toHaveProperty("requestState");
    expect(last.result.structuredContent).toEqual({ reset: true, checkpoint: "reset", stateDiscarded: true });
    expect(last.round.request.params).toMatchObject({ name: "reset_preferences", arguments: {}, requestState: first.requestState });
  });
});
