// Pins the preferences sample (sample/preferences), driven in-process and over an HTTP listener by
// the official client pinned to 2026-07-28 in manual MRTR mode, with raw wire assertions:
// - descriptors: three read-only, argument-less tools (two with an outputSchema), the resource
//   template preferences://{profile}/summary, the prompt preferences_prompt
// - choose_preferences takes exactly three requests: colour (red/green/blue) first, then a style
//   whose message and choices depend on the colour, then structuredContent { color, style } + text
// - the resource and the prompt ask the very same two questions (identical input requests) and
//   complete with the profile and answers in text / a user message built from the answers
// - the requestState changes every round; the final result carries neither requestState nor inputRequests
// - answers outside the offered choices (a colour, or a style of another colour) are refused with -32602
// - preview_theme asks URL-mode consent for a local address; accept, decline and cancel each
//   complete with the consent recorded and verified: false; a form-only client gets -32021
// - reset_preferences: input_required with only a requestState (no inputRequests key on the wire),
//   its retry completes with no state; a tampered or another tool's state is -32602
// - every server message validates against the official wire schema
import { ProtocolError } from "@modelcontextprotocol/client";
import { Boundary, type BoundaryName, type Connected } from "../support/boundaries";
import { createPreferencesApp } from "../../sample/preferences/preferences-app";
import { MemoryLogger, type McpApp } from "../../src/index";

type Json = Record<string, unknown>;
type Method = "tools/call" | "resources/read" | "prompts/get";

const STYLES: Record<string, string[]> = { red: ["crimson", "coral", "brick"], green: ["forest", "mint", "olive"], blue: ["navy", "sky", "teal"] };

const COLOR_REQUEST = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Which colour do you prefer?",
    requestedSchema: { type: "object", properties: { color: { type: "string", title: "Colour", enum: ["red", "green", "blue"] } }, required: ["color"] },
  },
};

const styleRequest = (color: string) => ({
  method: "elicitation/create",
  params: {
    mode: "form",
    message: `Which ${color} style?`,
    requestedSchema: { type: "object", properties: { style: { type: "string", title: "Style", enum: STYLES[color] } }, required: ["style"] },
  },
});

const accept = (content: Json) => ({ action: "accept", content });

async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as ProtocolError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error("expected the request to fail");
}

/** One manual round: the client's result and the raw result on the wire. */
async function round(c: Connected, method: Method, params: Json): Promise<{ result: Json; wire: Json }> {
  const options = { allowInputRequired: true };
  const result =
    method === "tools/call"
      ? await c.client.callTool(params as never, options)
      : method === "resources/read"
        ? await c.client.readResource(params as never, options)
        : await c.client.getPrompt(params as never, options);
  const wire = (c.tap.lastResponse(method) as { result: Json }).result;
  return { result: result as Json, wire };
}

/** Runs the colour-then-style workflow on `method` and returns every round's wire result and the final client result. */
async function chooseAll(c: Connected, method: Method, params: Json, color: string, style: string): Promise<{ wires: Json[]; final: Json }> {
  const first = await round(c, method, params);
  const second = await round(c, method, { ...params, inputResponses: { color: accept({ color }) }, requestState: first.wire.requestState });
  const third = await round(c, method, { ...params, inputResponses: { style: accept({ style }) }, requestState: second.wire.requestState });
  return { wires: [first.wire, second.wire, third.wire], final: third.result };
}

const BOUNDARY_NAMES: BoundaryName[] = ["in-process", "http"];

describe.each(BOUNDARY_NAMES)("the preferences sample over %s", (name) => {
  let app: McpApp;
  let boundary: Boundary;
  let c: Connected;
  const taps: Connected[] = [];

  beforeAll(async () => {
    app = createPreferencesApp({ logger: new MemoryLogger() });
    boundary = new Boundary(name, app, "preferences");
    await boundary.start();
    c = await boundary.connect({ capabilities: { elicitation: { form: {}, url: {} } } });
    taps.push(c);
  });

  afterAll(async () => {
    await boundary.stop();
    await app.close();
  });

  afterEach(() => {
    for (const t of taps) expect(t.tap.violations).toEqual([]);
  });

  it("publishes read-only tools, the summary template and the prompt", async () => {
    // A separate client: after tools/list, the pinned client (2.4.0) applies output-schema checks to
    // input_required results of callTool even with allowInputRequired, so the main client never lists.
    const lister = await boundary.connect({ capabilities: { elicitation: { form: {}, url: {} } } });
    taps.push(lister);
    const { tools } = await lister.client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint, t.inputSchema])).toEqual([
      ["choose_preferences", true, { type: "object", additionalProperties: false }],
      ["preview_theme", true, { type: "object", additionalProperties: false }],
      ["reset_preferences", true, { type: "object", additionalProperties: false }],
    ]);
    expect(tools.find((t) => t.name === "choose_preferences")!.outputSchema).toEqual({
      type: "object",
      properties: { color: { type: "string", enum: ["red", "green", "blue"] }, style: { type: "string" } },
      required: ["color", "style"],
      additionalProperties: false,
    });
    expect((await lister.client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "preferences://{profile}/summary", name: "preferences-summary", description: "A profile's preferences, asked for on reading", mimeType: "text/plain" },
    ]);
    expect((await lister.client.listPrompts()).prompts).toEqual([
      { name: "preferences_prompt", description: "Asks your preferences and turns them into a request for a theme", arguments: [] },
    ]);
  });

  it.each(["red", "green", "blue"])("asks colour %s, then that colour's styles, and completes in three requests", async (color) => {
    const style = STYLES[color][1];
    const { wires, final } = await chooseAll(c, "tools/call", { name: "choose_preferences", arguments: {} }, color, style);
    expect(wires[0]).toMatchObject({ resultType: "input_required", inputRequests: { color: COLOR_REQUEST } });
    expect(Object.keys(wires[0].inputRequests as Json)).toEqual(["color"]);
    expect(wires[1]).toMatchObject({ resultType: "input_required", inputRequests: { style: styleRequest(color) } });
    expect(Object.keys(wires[1].inputRequests as Json)).toEqual(["style"]);
    expect(typeof wires[0].requestState).toBe("string");
    expect(wires[1].requestState).not.toBe(wires[0].requestState);
    expect(wires[2].resultType).toBe("complete");
    expect(wires[2]).not.toHaveProperty("requestState");
    expect(wires[2]).not.toHaveProperty("inputRequests");
    expect(final.structuredContent).toEqual({ color, style });
    expect(final.content).toEqual([{ type: "text", text: `Preferences chosen: ${color} / ${style}` }]);
  });

  it("reads the summary resource through the same questions", async () => {
    const uri = "preferences://home/summary";
    const { wires, final } = await chooseAll(c, "resources/read", { uri }, "blue", "teal");
    expect(wires[0].inputRequests).toEqual({ color: COLOR_REQUEST });
    expect(wires[1].inputRequests).toEqual({ style: styleRequest("blue") });
    for (const wire of wires.slice(0, 2)) {
      expect(wire).not.toHaveProperty("ttlMs");
      expect(wire).not.toHaveProperty("cacheScope");
    }
    expect(wires[2]).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    expect(final.contents).toEqual([{ uri, mimeType: "text/plain", text: "Preferences for profile home: blue / teal" }]);
  });

  it("renders the prompt through the same questions", async () => {
    const { wires, final } = await chooseAll(c, "prompts/get", { name: "preferences_prompt" }, "red", "brick");
    expect(wires[0].inputRequests).toEqual({ color: COLOR_REQUEST });
    expect(wires[1].inputRequests).toEqual({ style: styleRequest("red") });
    expect(wires[2].resultType).toBe("complete");
    expect(final.messages).toEqual([{ role: "user", content: { type: "text", text: "Suggest a colour theme for me. My preferences: red / brick." } }]);
  });

  it("refuses a colour or a style that was not offered", async () => {
    const params = { name: "choose_preferences", arguments: {} };
    const first = await round(c, "tools/call", params);
    expect(await rejection(round(c, "tools/call", { ...params, inputResponses: { color: accept({ color: "purple" }) }, requestState: first.wire.requestState }))).toEqual({
      code: -32602,
      message: "Invalid elicitation response",
      data: { key: "color", reason: "content.color: enum" },
    });
    const second = await round(c, "tools/call", { ...params, inputResponses: { color: accept({ color: "green" }) }, requestState: first.wire.requestState });
    const navy = await rejection(round(c, "tools/call", { ...params, inputResponses: { style: accept({ style: "navy" }) }, requestState: second.wire.requestState }));
    expect([navy.code, navy.data]).toEqual([-32602, { key: "style", reason: "content.style: enum" }]);
  });

  it.each(["accept", "decline", "cancel"])("records URL consent %s without verifying the outside step", async (action) => {
    const params = { name: "preview_theme", arguments: {} };
    const first = await round(c, "tools/call", params);
    expect(first.wire).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        consent: {
          method: "elicitation/create",
          params: { mode: "url", message: "Open the theme preview in your browser?", url: "http://localhost/preview?theme=current" },
        },
      },
    });
    const last = await round(c, "tools/call", { ...params, inputResponses: { consent: { action } }, requestState: first.wire.requestState });
    expect(last.wire.resultType).toBe("complete");
    expect(last.result.isError).toBeUndefined();
    expect(last.result.structuredContent).toEqual({ consent: action, verified: false });
    expect(last.result.content).toEqual([{ type: "text", text: `Consent: ${action}. Preview not verified: nothing was fetched or opened.` }]);
  });

  it("answers -32021 naming the URL capability to a form-only client", async () => {
    const formOnly = await boundary.connect({ capabilities: { elicitation: { form: {} } } });
    taps.push(formOnly);
    expect(await rejection(formOnly.client.callTool({ name: "preview_theme", arguments: {} }, { allowInputRequired: true }))).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
  });

  it("continues reset_preferences from a state-only round and carries nothing further", async () => {
    const params = { name: "reset_preferences", arguments: {} };
    const first = await round(c, "tools/call", params);
    const { _meta, ...bare } = first.wire;
    expect(bare).toEqual({ resultType: "input_required", requestState: expect.any(String) });
    const last = await round(c, "tools/call", { ...params, requestState: first.wire.requestState });
    expect(last.wire.resultType).toBe("complete");
    expect(last.wire).not.toHaveProperty("requestState");
    expect(last.result.structuredContent).toEqual({ reset: true, checkpoint: "reset", stateDiscarded: true });
  });

  it("refuses a tampered state and another tool's state with the same -32602", async () => {
    const params = { name: "reset_preferences", arguments: {} };
    const first = await round(c, "tools/call", params);
    const tampered = await rejection(round(c, "tools/call", { ...params, requestState: `${first.wire.requestState as string}-TAMPERED` }));
    const other = await round(c, "tools/call", { name: "choose_preferences", arguments: {} });
    const foreign = await rejection(round(c, "tools/call", { ...params, requestState: other.wire.requestState }));
    expect(tampered).toEqual({ code: -32602, message: "Invalid or expired request state", data: undefined });
    expect(foreign).toEqual(tampered);
  });
});
