// Pins, over in-process, stdio and HTTP, with exact wire JSON (raw sessions) and the official
// client in manual mode (allowInputRequired) and automatic mode:
// - several questions in one round; only the missing ones re-asked; new sealed state every round;
//   an answer carried in state wins over a stale one resent; repeated (three-round) flows with a
//   question computed from an earlier answer
// - extra and wrong keys: unknown keys ignored, a wrong key re-asks; an answer without any state
//   is accepted for the question that would be asked now
// - decline and cancel under each policy (end → isError for tools, -32602 for resources and prompts;
//   optional → undefined; outcome → the whole outcome)
// - malformed envelopes (-32602 before the component runs) and invalid answers (-32602, no echo)
// - tampered and other-request state (-32602, never a silent restart)
// - the capability matrix (-32021 with one merged requiredCapabilities), re-read every round
// - middleware run anew on every round; forged capabilities in middleware still refused
// - the raw wire escape gets the same checks; input_required skips cache hints and output
//   validation, final results get both
// - URL consent and re-ask (the same elicitationId on every round of the flow; a hand-written URL
//   question gets one of its principal, URL and key); sampling and roots; a state-only continuation
// - an @Elicit question followed by the method's own sampling request: exactly three rounds, the
//   elicited answer carried through the method's round (raw wire, and the official client in
//   automatic mode, which must not loop)
// - over HTTP: a flow continued on another instance that shares the key; state refused for
//   another principal and once expired (re-asking a changed question: round-planner.test.ts)
// - 2025-era clients: an @Elicit flow over stdio through the SDK's compatibility path; a clear
//   -32021, never a hang, over HTTP with sessions off, whose text says why (the request came without a session)
//   instead of claiming the client did not declare what it declared
import { Client } from "@modelcontextprotocol/client";
import { BOUNDARIES, Boundary } from "../support/boundaries";
import type { RawSession, WireResponse } from "../support/raw-session";
import { createInteractiveApp } from "./fixtures/interactive-app";
import { elicitationIdOf } from "../../src/elicitation/elicitation-id";
import { INVALID_STATE_MESSAGE, type McpApp } from "../../src/index";

const FORM = { elicitation: {} };
const ALL = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

type Result = Record<string, unknown> & {
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  requestState?: string;
};

function resultOf(response: WireResponse): Result {
  if (!response.result) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result as Result;
}

function errorOf(response: WireResponse): { code: number; message: string; data?: unknown } {
  if (!response.error) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

describe.each(BOUNDARIES)("interactive operations over %s", (name) => {
  let app: McpApp;
  let boundary: Boundary;
  let raw: RawSession;

  beforeAll(async () => {
    app = createInteractiveApp();
    boundary = new Boundary(name, app, "interactive");
    await boundary.start();
    raw = await boundary.raw();
  });
  afterAll(async () => {
    await boundary.stop();
    await app.close();
  });
  afterEach(() => expect(raw.violations).toEqual([]));

  const trip = (extra: Record<string, unknown> = {}, caps: Record<string, unknown> = FORM) =>
    raw.request("tools/call", { name: "book_trip", arguments: { destination: "Oslo" }, ...extra }, caps);

  it("asks every missing question in one round, with sealed state and no cache hints", async () => {
    const first = resultOf(await trip());
    expect(first.resultType).toBe("input_required");
    expect(Object.keys(first.inputRequests!)).toEqual(["traveller", "seats"]);
    expect(first.inputRequests!.traveller).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Who is travelling?",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string", title: "Full name", maxLength: 40 }, email: { type: "string", format: "email" } },
          required: ["name", "email"],
        },
      },
    });
    expect(first.inputRequests!.seats!.params.requestedSchema).toEqual({
      type: "object",
      properties: { count: { type: "integer", minimum: 1, maximum: 9 } },
      required: ["count"],
    });
    expect(typeof first.requestState).toBe("string");
    expect(first).not.toHaveProperty("ttlMs");
    expect(first).not.toHaveProperty("structuredContent");
  });

  it("carries partial answers: only the missing question is asked again, with new state", async () => {
    const first = resultOf(await trip());
    const second = resultOf(
      await trip({
        requestState: first.requestState,
        inputResponses: { traveller: { action: "accept", content: { name: "Ada", email: "ada@example.com" } } },
      }),
    );
    expect(second.resultType).toBe("input_required");
    expect(Object.keys(second.inputRequests!)).toEqual(["seats"]);
    expect(second.requestState).not.toBe(first.requestState);
    // The stale traveller resent with the final answer does not replace the carried one.
    const done = resultOf(
      await trip({
        requestState: second.requestState,
        inputResponses: {
          seats: { action: "accept", content: { count: 2 } },
          traveller: { action: "accept", content: { name: "Mallory", email: "m@example.com" } },
        },
      }),
    );
    expect(done).toMatchObject({ resultType: "complete", structuredContent: { summary: "Ada <ada@example.com> x2 to Oslo" } });
  });

  it("runs a three-round flow whose second question depends on the first answer", async () => {
    const call = (extra: Record<string, unknown> = {}) =>
      raw.request("tools/call", { name: "choose_style", arguments: {}, ...extra }, FORM);
    const r1 = resultOf(await call());
    expect(Object.keys(r1.inputRequests!)).toEqual(["color"]);
    const r2 = resultOf(
      await call({ requestState: r1.requestState, inputResponses: { color: { action: "accept", content: { color: "blue" } } } }),
    );
    expect(r2.inputRequests!.style!.params).toMatchObject({
      message: "Which blue?",
      requestedSchema: { properties: { style: { enum: ["navy", "sky"] } } },
    });
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = resultOf(
      await call({ requestState: r2.requestState, inputResponses: { style: { action: "accept", content: { style: "sky" } } } }),
    );
    expect(r3).toMatchObject({ resultType: "complete", structuredContent: { color: "blue", style: "sky" } });
    // A style valid for another colour is not a valid answer to this question.
    const wrong = await call({
      requestState: r2.requestState,
      inputResponses: { style: { action: "accept", content: { style: "mint" } } },
    });
    expect(errorOf(wrong)).toMatchObject({ code: -32602, message: "Invalid elicitation response" });
  });

  it("ignores unknown keys, re-asks on a wrong key, and accepts answers without state", async () => {
    const both = {
      traveller: { action: "accept", content: { name: "Bo", email: "bo@example.com" } },
      seats: { action: "accept", content: { count: 1 } },
      unrelated: { action: "accept", content: { x: 1 } },
    };
    expect(resultOf(await trip({ inputResponses: both }))).toMatchObject({ resultType: "complete" });
    const wrongKey = resultOf(await trip({ inputResponses: { wrong_key: { action: "accept", content: {} } } }));
    expect(wrongKey.resultType).toBe("input_required");
    expect(Object.keys(wrongKey.inputRequests!)).toEqual(["traveller", "seats"]);
  });

  it("refuses invalid answers with -32602 without echoing them", async () => {
    const tooMany = errorOf(await trip({ inputResponses: { seats: { action: "accept", content: { count: 20 } } } }));
    // The payload is the planner's (test/unit/dispatch/round-planner.test.ts); here, that no boundary echoes the value.
    expect(tooMany).toMatchObject({ code: -32602, data: { key: "seats" } });
    expect(JSON.stringify(tooMany)).not.toContain("20");
    const badEmail = errorOf(
      await trip({ inputResponses: { traveller: { action: "accept", content: { name: "X", email: "SECRET-not-an-email" } } } }),
    );
    expect(badEmail.code).toBe(-32602);
    expect(JSON.stringify(badEmail)).not.toContain("SECRET");
    const badAction = errorOf(await trip({ inputResponses: { seats: { action: "maybe" } } }));
    expect(badAction).toMatchObject({ code: -32602, message: "Invalid elicitation response" });
  });

  it.each([
    ["requestState not a string", { requestState: 42 }],
    ["inputResponses null", { inputResponses: null }],
    ["inputResponses an array", { inputResponses: [] }],
    ["inputResponses a string", { inputResponses: "x" }],
    ["an entry not an object", { inputResponses: { traveller: 12345 } }],
    ["an entry null", { inputResponses: { traveller: null } }],
  ])("refuses a malformed retry envelope (%s) with -32602", async (_label, extra) => {
    expect(errorOf(await trip(extra)).code).toBe(-32602);
  });

  it("refuses tampered state and state from another request with -32602", async () => {
    const first = resultOf(await trip());
    const tampered = errorOf(
      await trip({
        requestState: `${first.requestState}-TAMPERED`,
        inputResponses: { seats: { action: "accept", content: { count: 1 } } },
      }),
    );
    expect(tampered).toMatchObject({ code: -32602, message: expect.stringMatching(/Invalid or expired request ?[sS]tate/) });
    const elsewhere = await raw.request(
      "tools/call",
      { name: "book_trip", arguments: { destination: "Rome" }, requestState: first.requestState },
      FORM,
    );
    expect(errorOf(elsewhere)).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
    const otherTool = await raw.request("tools/call", { name: "choose_style", arguments: {}, requestState: first.requestState }, FORM);
    expect(errorOf(otherTool)).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
  });

  it("applies each decline policy", async () => {
    const call = (tool: string, answer: Record<string, unknown>) =>
      raw.request("tools/call", { name: tool, arguments: {}, inputResponses: { note: answer } }, FORM);
    const ended = resultOf(await call("required_note", { action: "decline" }));
    expect(ended).toMatchObject({
      resultType: "complete",
      isError: true,
      content: [{ type: "text", text: 'The question "note" was declined; the operation ended.' }],
    });
    expect(resultOf(await call("required_note", { action: "cancel" })).content).toEqual([
      { type: "text", text: 'The question "note" was cancelled; the operation ended.' },
    ]);
    expect(resultOf(await call("optional_note", { action: "decline" })).content).toEqual([{ type: "text", text: "note: none" }]);
    expect(resultOf(await call("optional_note", { action: "accept", content: { text: "hi" } })).content).toEqual([
      { type: "text", text: "note: hi" },
    ]);
    expect(resultOf(await call("outcome_note", { action: "cancel" })).content).toEqual([{ type: "text", text: "action: cancel" }]);
    expect(resultOf(await call("outcome_note", { action: "accept", content: { text: "yo" } })).content).toEqual([
      { type: "text", text: "action: accept text: yo" },
    ]);
  });

  it("serves a resource that asks, with cache hints only on the final result", async () => {
    const read = (extra: Record<string, unknown> = {}) => raw.request("resources/read", { uri: "profile://ada/card", ...extra }, FORM);
    const first = resultOf(await read());
    expect(first.resultType).toBe("input_required");
    expect(first).not.toHaveProperty("ttlMs");
    const done = resultOf(
      await read({ requestState: first.requestState, inputResponses: { color: { action: "accept", content: { color: "red" } } } }),
    );
    expect(done).toMatchObject({
      resultType: "complete",
      contents: [{ uri: "profile://ada/card", mimeType: "text/plain", text: "card ada in red" }],
      ttlMs: 5000,
      cacheScope: "private",
    });
    const declined = errorOf(await read({ requestState: first.requestState, inputResponses: { color: { action: "decline" } } }));
    expect(declined).toEqual({ code: -32602, message: 'The question "color" was declined', data: { key: "color", action: "decline" } });
  });

  it("serves a prompt that asks", async () => {
    const get = (extra: Record<string, unknown> = {}) => raw.request("prompts/get", { name: "interview", ...extra }, FORM);
    const first = resultOf(await get());
    expect(Object.keys(first.inputRequests!)).toEqual(["confirm"]);
    const done = resultOf(
      await get({ requestState: first.requestState, inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } } }),
    );
    expect(done).toMatchObject({
      resultType: "complete",
      messages: [{ role: "user", content: { type: "text", text: "Interview confirmed: yes" } }],
    });
    expect(errorOf(await get({ inputResponses: { confirm: { action: "cancel" } } }))).toMatchObject({
      code: -32602,
      data: { key: "confirm", action: "cancel" },
    });
  });

  it("answers -32021 with one merged requiredCapabilities when the client lacks what a round needs", async () => {
    // The payload is admission's (test/unit/dispatch/admission.test.ts); here, that it reaches each boundary's client.
    expect(errorOf(await trip({}, {}))).toMatchObject({ code: -32021 });
    expect(errorOf(await trip({}, {})).data).toEqual({ requiredCapabilities: { elicitation: {} } });
    const url = await raw.request("tools/call", { name: "connect_account", arguments: { account: "a" } }, FORM);
    expect(errorOf(url).data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    // The message itself says what is missing and what was declared: clients that drop data still show it.
    expect(errorOf(url).message).toBe(
      "Missing required client capability: elicitation.url. This request did not declare it in _meta " +
        "io.modelcontextprotocol/clientCapabilities (it declared elicitation); a request that declares elicitation.url there is asked.",
    );
    const both = await raw.request("tools/call", { name: "sample_and_roots", arguments: {} }, FORM);
    expect(errorOf(both).data).toEqual({ requiredCapabilities: { sampling: {}, roots: {} } });
  });

  it("re-reads capabilities every round: a client that drops one mid-flow is refused", async () => {
    const first = resultOf(await trip());
    const dropped = await trip(
      {
        requestState: first.requestState,
        inputResponses: { traveller: { action: "accept", content: { name: "A", email: "a@example.com" } } },
      },
      {},
    );
    expect(errorOf(dropped)).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it("runs middleware anew on every round", async () => {
    // The guard lives in the serving process (the child, over stdio): it is toggled through a tool.
    const setGuard = async (open: boolean) =>
      expect(resultOf(await raw.request("tools/call", { name: "set_guard", arguments: { open } }, {})).isError).toBeUndefined();
    const call = (extra: Record<string, unknown> = {}) => raw.request("tools/call", { name: "guarded", arguments: {}, ...extra }, FORM);
    await setGuard(true);
    const first = resultOf(await call());
    expect(first.resultType).toBe("input_required");
    await setGuard(false);
    try {
      const refused = errorOf(
        await call({ requestState: first.requestState, inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } } }),
      );
      expect(refused).toEqual({ code: -33001, message: "Guard closed", data: { reason: "closed" } });
    } finally {
      await setGuard(true);
    }
    const allowed = resultOf(
      await call({ requestState: first.requestState, inputResponses: { confirm: { action: "accept", content: { answer: "yes" } } } }),
    );
    expect(allowed.content).toEqual([{ type: "text", text: "confirmed: yes" }]);
  });

  it("refuses a URL question behind middleware that forges capabilities", async () => {
    const forged = await raw.request("tools/call", { name: "forged", arguments: {} }, FORM);
    expect(errorOf(forged).code).toBe(-32021);
    expect(errorOf(forged).data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
  });

  it("gives the raw wire escape the same checks", async () => {
    expect(errorOf(await raw.request("tools/call", { name: "raw_escape", arguments: {} }, FORM)).code).toBe(-32021);
    const allowed = resultOf(await raw.request("tools/call", { name: "raw_escape", arguments: {} }, ALL));
    expect(allowed).toEqual(
      expect.objectContaining({
        resultType: "input_required",
        // A hand-written URL question gets an elicitationId of its principal (none here), URL and key.
        inputRequests: {
          open: {
            method: "elicitation/create",
            params: {
              mode: "url",
              message: "Open",
              url: "https://example.com/a",
              elicitationId: elicitationIdOf("\0https://example.com/a", "open"),
            },
          },
        },
      }),
    );
    expect(errorOf(await raw.request("tools/call", { name: "raw_empty", arguments: {} }, ALL)).code).toBe(-32603);
  });

  it("asks URL consent and asks again until the outside step is done", async () => {
    const call = (extra: Record<string, unknown> = {}) =>
      raw.request("tools/call", { name: "connect_account", arguments: { account: `acct-${name}` }, ...extra }, ALL);
    const first = resultOf(await call());
    expect(first.inputRequests!.consent).toEqual({
      method: "elicitation/create",
      params: {
        mode: "url",
        message: "Connect your account",
        url: "https://accounts.example.com/connect",
        elicitationId: expect.stringMatching(/^[\w-]{22}$/),
      },
    });
    const again = resultOf(await call({ requestState: first.requestState, inputResponses: { consent: { action: "accept" } } }));
    expect(again.resultType).toBe("input_required");
    // Asked again in the same flow: the very same question, elicitationId included (hosts track it).
    expect(again.inputRequests).toEqual({ consent: first.inputRequests!.consent });
    // The outside step finishes (recorded in the serving process, the child over stdio).
    expect(
      resultOf(await raw.request("tools/call", { name: "finish_connection", arguments: { account: `acct-${name}` } }, {})).content,
    ).toEqual([{ type: "text", text: `finished acct-${name}` }]);
    const done = resultOf(await call({ requestState: again.requestState, inputResponses: { consent: { action: "accept" } } }));
    expect(done.content).toEqual([{ type: "text", text: `connected acct-${name} (accept)` }]);
  });

  it("asks sampling and roots in one round and completes with both answers", async () => {
    const call = (extra: Record<string, unknown> = {}) =>
      raw.request("tools/call", { name: "sample_and_roots", arguments: {}, ...extra }, ALL);
    const first = resultOf(await call());
    expect(first.inputRequests).toEqual({
      capital: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 20 },
      },
      roots: { method: "roots/list", params: {} },
    });
    const done = resultOf(
      await call({
        inputResponses: {
          capital: { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" },
          roots: { roots: [{ uri: "file:///home" }] },
        },
      }),
    );
    expect(done.content).toEqual([{ type: "text", text: "capital: Paris; roots: file:///home" }]);
    expect(errorOf(await call({ inputResponses: { roots: { roots: "nope" } } })).message).toBe("Invalid roots response");
  });

  it("carries an @Elicit answer through the method's own sampling round: three rounds", async () => {
    const call = (extra: Record<string, unknown> = {}) => raw.request("tools/call", { name: "trip_summary", arguments: {}, ...extra }, ALL);
    const first = resultOf(await call());
    expect(Object.keys(first.inputRequests!)).toEqual(["trip"]);
    const second = resultOf(
      await call({ requestState: first.requestState, inputResponses: { trip: { action: "accept", content: { destination: "Oslo" } } } }),
    );
    expect(second).toEqual({
      resultType: "input_required",
      inputRequests: {
        summary: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: "Summarise Oslo" } }], maxTokens: 30 },
        },
      },
      requestState: expect.any(String),
      _meta: expect.any(Object),
    });
    const third = resultOf(
      await call({
        requestState: second.requestState,
        inputResponses: { summary: { role: "assistant", content: { type: "text", text: "fjords" }, model: "m" } },
      }),
    );
    expect(third.content).toEqual([{ type: "text", text: "Oslo: fjords" }]);
  });

  it("lets the official client complete @Elicit plus sampling unaided, in three rounds (automatic mode)", async () => {
    const { client, tap } = await boundary.connect({ capabilities: { elicitation: { form: {} }, sampling: {} }, manual: false });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async () => {
      asked.push("elicitation");
      return { action: "accept" as const, content: { destination: "Lima" } };
    });
    client.setRequestHandler("sampling/createMessage", async () => {
      asked.push("sampling");
      return { role: "assistant" as const, content: { type: "text" as const, text: "ceviche" }, model: "m" };
    });
    const result = await client.callTool({ name: "trip_summary", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Lima: ceviche" }]);
    expect(asked).toEqual(["elicitation", "sampling"]);
    expect(tap.sent.filter((m) => (m as { method?: string }).method === "tools/call")).toHaveLength(3);
    expect(tap.violations).toEqual([]);
  });

  it("runs a state-only continuation", async () => {
    const first = resultOf(await raw.request("tools/call", { name: "reset", arguments: {} }, {}));
    expect(first).toEqual({ resultType: "input_required", requestState: expect.any(String), _meta: expect.any(Object) });
    const done = resultOf(await raw.request("tools/call", { name: "reset", arguments: {}, requestState: first.requestState }, {}));
    expect(done.content).toEqual([{ type: "text", text: "done after reset" }]);
  });

  it("lets the official client drive a flow round by round (manual mode)", async () => {
    const { client, tap } = await boundary.connect({ capabilities: FORM });
    const r1 = (await client.callTool({ name: "choose_style", arguments: {} }, { allowInputRequired: true })) as unknown as Result;
    expect(r1.resultType).toBe("input_required");
    const r2 = (await client.callTool(
      {
        name: "choose_style",
        arguments: {},
        inputResponses: { color: { action: "accept", content: { color: "red" } } },
        requestState: r1.requestState,
      } as never,
      { allowInputRequired: true },
    )) as unknown as Result;
    expect(r2.inputRequests!.style!.params.message).toBe("Which red?");
    const r3 = await client.callTool(
      {
        name: "choose_style",
        arguments: {},
        inputResponses: { style: { action: "accept", content: { style: "brick" } } },
        requestState: r2.requestState,
      } as never,
      { allowInputRequired: true },
    );
    expect(r3.structuredContent).toEqual({ color: "red", style: "brick" });
    expect(tap.violations).toEqual([]);
  });

  it("lets the official client complete a three-round flow unaided (automatic mode)", async () => {
    const { client, tap } = await boundary.connect({ capabilities: FORM, manual: false });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string };
      asked.push(params.message);
      const content: Record<string, string> = params.message === "Pick a colour" ? { color: "green" } : { style: "forest" };
      return { action: "accept" as const, content };
    });
    const result = await client.callTool({ name: "choose_style", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "green", style: "forest" });
    expect(asked).toEqual(["Pick a colour", "Which green?"]);
    expect(tap.sent.filter((m) => (m as { method?: string }).method === "tools/call")).toHaveLength(3);
    expect(tap.violations).toEqual([]);
  });
});

describe("state across fresh server instances and principals (HTTP)", () => {
  const apps: McpApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it("continues a flow on another instance that shares the key", async () => {
    const one = createInteractiveApp();
    const two = createInteractiveApp();
    apps.push(one, two);
    const [b1, b2] = [new Boundary("http", one, "interactive"), new Boundary("http", two, "interactive")];
    await b1.start();
    await b2.start();
    const [r1, r2] = [await b1.raw(), await b2.raw()];
    const params = { name: "book_trip", arguments: { destination: "Lima" } };
    const first = resultOf(await r1.request("tools/call", params, FORM));
    const second = resultOf(
      await r2.request(
        "tools/call",
        { ...params, requestState: first.requestState, inputResponses: { seats: { action: "accept", content: { count: 3 } } } },
        FORM,
      ),
    );
    expect(Object.keys(second.inputRequests!)).toEqual(["traveller"]);
    const done = resultOf(
      await r1.request(
        "tools/call",
        {
          ...params,
          requestState: second.requestState,
          inputResponses: { traveller: { action: "accept", content: { name: "Cy", email: "cy@example.com" } } },
        },
        FORM,
      ),
    );
    expect(done.structuredContent).toEqual({ summary: "Cy <cy@example.com> x3 to Lima" });
    await b1.stop();
    await b2.stop();
  });

  it("refuses state presented by another principal, and expired state", async () => {
    let now = Date.parse("2026-11-30T12:00:00Z");
    const app = createInteractiveApp({ state: { secret: "p".repeat(40), now: () => now } });
    apps.push(app);
    const listener = await app.listen({ authenticate: (req) => (req.headers.authorization ?? "").replace("Bearer ", "") || null });
    const post = async (user: string, params: Record<string, unknown>) => {
      const { rpc, meta } = await import("../support/raw-http");
      return rpc(listener.url, "tools/call", { _meta: meta(FORM), ...params }, { headers: { authorization: `Bearer ${user}` } });
    };
    const params = { name: "book_trip", arguments: { destination: "Quito" } };
    const first = (await post("alice", params)).body!.result as Result;
    const stolen = await post("mallory", { ...params, requestState: first.requestState });
    expect(stolen.body!.error).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
    const own = await post("alice", { ...params, requestState: first.requestState });
    expect((own.body!.result as Result).resultType).toBe("input_required");
    now += 300_000; // exactly the default ttl: expired (exclusive)
    const expired = await post("alice", { ...params, requestState: first.requestState });
    expect(expired.body!.error).toEqual({ code: -32602, message: INVALID_STATE_MESSAGE });
  });
});

describe("2025-era clients", () => {
  it("complete an @Elicit flow over stdio through the SDK's compatibility path", async () => {
    const app = createInteractiveApp();
    const boundary = new Boundary("stdio", app, "interactive");
    const { client, tap } = await boundary.connect({ era: "2025", capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string };
      asked.push(params.message);
      const content: Record<string, string> = params.message === "Pick a colour" ? { color: "blue" } : { style: "navy" };
      return { action: "accept" as const, content };
    });
    const result = await client.callTool({ name: "choose_style", arguments: {} });
    expect(result.structuredContent).toEqual({ color: "blue", style: "navy" });
    expect(asked).toEqual(["Pick a colour", "Which blue?"]);
    // Each message in the 2025-11-25 shape: no resultType on the result, the questions as 2025 sends them.
    expect(tap.revision).toBe("2025-11-25");
    expect(tap.violations).toEqual([]);
    await boundary.stop();
    await app.close();
  });

  it("get a clear error, never a hang, on HTTP with sessions off", async () => {
    const app = createInteractiveApp({ sessions: false });
    const listener = await app.listen();
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const client = new Client({ name: "old", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    const outcome = await client.callTool({ name: "choose_style", arguments: {} }).then(
      (r) => ({ ok: true as const, r }),
      (e: { code?: number; message: string }) => ({ ok: false as const, e }),
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.e.code).toBe(-32021);
      // It declared elicitation: the text says why it cannot be asked, not that it did not declare it.
      expect(outcome.e.message).toContain(
        "Missing required client capability: elicitation. This 2025-era request came without a session, so what its client " +
          "declared at initialize is not known here and it cannot be asked",
      );
      expect(outcome.e.message).not.toContain("did not declare");
    }
    await client.close();
    await app.close();
  });
});
