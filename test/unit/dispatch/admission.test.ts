// Pins admission (dispatch/admission.ts), the one place the -32021 payload is made; other suites
// assert only what their own level adds (which requests reach it, its HTTP status, its era):
// - requireCapabilities: nothing when the declared capabilities allow every request; else -32021
//   with data { requiredCapabilities } merging what every request lacks (one object, each
//   capability once), and a message naming what is missing and what the request declared in its
//   _meta (clients that show only the message, dropping data, still tell the user)
// - a 2025-era request names what is missing and what its client declared at initialize (or that
//   it declared nothing); outside a session (capabilities unknown) it says so instead of claiming
//   the client left the capability out; a client whose revision predates URL elicitation
//   (2025-06-18) refused a URL question is told it needs 2025-11-25 or later, not only to declare
//   elicitation.url (which its revision has no room for)
// - admitInputRequired gives a hand-written URL question without an elicitationId one of its
//   principal, URL and key (stable on every retry), and keeps an id the question has
// - admitInputRequired returns exactly resultType, inputRequests and requestState; from a method
//   that cannot carry input_required, or with neither requests nor state, it is -32603 "Internal
//   error" with the reason in the log only
import { admitInputRequired, LEGACY_NO_SESSION, requireCapabilities } from "../../../src/dispatch/admission";
import { UNKNOWN_CAPABILITIES } from "../../../src/dispatch/request-context-of";
import { Elicitation } from "../../../src/elicitation/elicitation";
import { elicitationIdOf } from "../../../src/elicitation/elicitation-id";
import { Roots } from "../../../src/elicitation/roots";
import { Sampling } from "../../../src/elicitation/sampling";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import { McpError } from "../../../src/protocol/errors";
import type { ClientCapabilities } from "../../../src/protocol/wire-types";
import { MemoryLogger } from "../../../src/testing/index";

const FORM = Elicitation.form("Who?", { type: "object", properties: { name: { type: "string" } } });
const URL_CONSENT = Elicitation.url("Connect", "https://example.com/connect");
const SAMPLE = Sampling.createMessage({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 });

function refusal(run: () => unknown): McpError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("expected a refusal");
}

function request(clientCapabilities: ClientCapabilities, era?: "legacy"): InboundRequest {
  return { method: "tools/call", params: { name: "t" }, principal: null, clientCapabilities, ...(era && { era }) } as InboundRequest;
}

describe("requireCapabilities", () => {
  it("lets through what the declared capabilities allow", () => {
    expect(() => requireCapabilities([FORM, SAMPLE], { clientCapabilities: { elicitation: {}, sampling: {} } })).not.toThrow();
  });

  it("refuses with the -32021 payload, merging what every request lacks", () => {
    const error = refusal(() => requireCapabilities([FORM, URL_CONSENT, SAMPLE, Roots.list(), SAMPLE], { clientCapabilities: {} }));
    expect(error.toJSON()).toEqual({
      code: -32021,
      message:
        "Missing required client capability: elicitation.form, elicitation.url, sampling, roots. This request did not declare it in " +
        "_meta io.modelcontextprotocol/clientCapabilities (it declared no capabilities); a request that declares " +
        "elicitation.form, elicitation.url, sampling, roots there is asked.",
      data: { requiredCapabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } },
    });
  });

  it("tells a 2026-07-28 client in the message what is missing and what its request declared (clients drop data)", () => {
    const error = refusal(() => requireCapabilities([URL_CONSENT], { clientCapabilities: { elicitation: { form: {} }, sampling: {} } }));
    expect(error.message).toBe(
      "Missing required client capability: elicitation.url. This request did not declare it in _meta " +
        "io.modelcontextprotocol/clientCapabilities (it declared elicitation.form, sampling); a request that declares " +
        "elicitation.url there is asked.",
    );
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
  });

  it("tells a 2025-era client what is missing and what it declared at initialize", () => {
    const declared = refusal(() =>
      requireCapabilities([URL_CONSENT], { clientCapabilities: { elicitation: { form: {} } }, era: "legacy" }),
    );
    expect(declared.message).toBe(
      "Missing required client capability: elicitation.url. This client did not declare it at initialize (it declared " +
        "elicitation.form); a client that declares elicitation.url there is asked.",
    );
    expect(declared.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    const none = refusal(() => requireCapabilities([SAMPLE], { clientCapabilities: {}, era: "legacy" }));
    expect(none.message).toContain("(it declared no capabilities)");
  });

  it("tells a 2025-06-18 client refused a URL question that URL questions need 2025-11-25 or later", () => {
    const error = refusal(() =>
      requireCapabilities([URL_CONSENT], { clientCapabilities: { elicitation: {} }, era: "legacy", negotiatedVersion: "2025-06-18" }),
    );
    expect(error.message).toBe(
      "Missing required client capability: elicitation.url. This client did not declare it at initialize (it declared " +
        "elicitation), and the revision it negotiated, 2025-06-18, has no URL elicitation: URL questions need 2025-11-25 or " +
        "later, so a client that negotiates 2025-11-25 or later and declares elicitation.url at initialize is asked.",
    );
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
    // A form question is expressible at 2025-06-18: declaring elicitation is what helps.
    const form = refusal(() => requireCapabilities([FORM], { clientCapabilities: {}, era: "legacy", negotiatedVersion: "2025-06-18" }));
    expect(form.message).toBe(
      "Missing required client capability: elicitation. This client did not declare it at initialize (it declared " +
        "no capabilities); a client that declares elicitation there is asked.",
    );
    // From 2025-11-25 on, declaring elicitation.url is the fix.
    const current = refusal(() =>
      requireCapabilities([URL_CONSENT], { clientCapabilities: { elicitation: {} }, era: "legacy", negotiatedVersion: "2025-11-25" }),
    );
    expect(current.message).toContain("a client that declares elicitation.url there is asked.");
  });

  it("does not claim a 2025-era client outside a session left anything out", () => {
    const error = refusal(() => requireCapabilities([FORM], { clientCapabilities: UNKNOWN_CAPABILITIES, era: "legacy" }));
    expect(error.message).toBe(`Missing required client capability: elicitation. ${LEGACY_NO_SESSION}`);
    expect(error.message).not.toContain("did not declare");
  });
});

describe("admitInputRequired", () => {
  it("returns exactly resultType, inputRequests and requestState", () => {
    const logger = new MemoryLogger();
    const result = { resultType: "input_required", inputRequests: { who: FORM }, requestState: "s", content: [], extra: 1 };
    expect(admitInputRequired(result, request({ elicitation: {} }), true, logger)).toEqual({
      resultType: "input_required",
      inputRequests: { who: FORM },
      requestState: "s",
    });
    expect(admitInputRequired({ resultType: "input_required", requestState: "s" }, request({}), true, logger)).toEqual({
      resultType: "input_required",
      requestState: "s",
    });
  });

  it("gives a hand-written URL question without an id one of its principal, URL and key, and keeps an id it has", () => {
    const urlCapable = { elicitation: { form: {}, url: {} } };
    const admitted = (principal: string | null, inputRequests: Record<string, unknown>) =>
      admitInputRequired(
        { resultType: "input_required", inputRequests, requestState: "s" },
        { ...request(urlCapable), principal },
        true,
        new MemoryLogger(),
      ).inputRequests as Record<string, { params: Record<string, unknown> }>;
    const alice = admitted("alice", { connect: URL_CONSENT, who: FORM });
    expect(alice.connect!.params).toEqual({
      ...URL_CONSENT.params,
      elicitationId: elicitationIdOf("alice\0https://example.com/connect", "connect"),
    });
    expect(alice.who).toBe(FORM);
    // Every retry of the same question gets the same id; another principal or key another.
    expect(admitted("alice", { connect: URL_CONSENT }).connect!.params.elicitationId).toBe(alice.connect!.params.elicitationId);
    expect(admitted("bob", { connect: URL_CONSENT }).connect!.params.elicitationId).not.toBe(alice.connect!.params.elicitationId);
    expect(admitted(null, { link: URL_CONSENT }).link!.params.elicitationId).toBe(elicitationIdOf("\0https://example.com/connect", "link"));
    const own = { ...URL_CONSENT, params: { ...URL_CONSENT.params, elicitationId: "mine" } };
    expect(admitted("alice", { connect: own }).connect).toBe(own);
  });

  it("checks the requests against the request's own capabilities", () => {
    const result = { resultType: "input_required", inputRequests: { s: SAMPLE } };
    const error = refusal(() => admitInputRequired(result, request({ elicitation: {} }), true, new MemoryLogger()));
    expect([error.code, error.data]).toEqual([-32021, { requiredCapabilities: { sampling: {} } }]);
  });

  it.each([
    ["a method that cannot carry it", { resultType: "input_required", requestState: "s" }, false, "cannot carry it"],
    ["neither requests nor state", { resultType: "input_required", inputRequests: {} }, true, "neither inputRequests nor requestState"],
  ])("is an internal error for %s, the reason in the log only", (_what, result, mayCarryIt, reason) => {
    const logger = new MemoryLogger();
    const error = refusal(() => admitInputRequired(result, request({ elicitation: {} }), mayCarryIt, logger));
    expect(error.toJSON()).toEqual({ code: -32603, message: "Internal error" });
    expect(logger.entries).toEqual([expect.objectContaining({ level: "error", message: expect.stringContaining(reason) })]);
  });
});
