// Pins the elicitationId of URL questions (elicitation/elicitation-id.ts):
// - elicitationIdOf: 22 base64url characters, a function of the scope and the key alone (the same
//   on every call, in any process), different for another scope or key, and neither part readable
// - withElicitationId: a URL question gains the id as its last param, in a new frozen request (the
//   built one untouched); a form question, or a URL question that has an id, is returned as it is
// - withElicitationIds: stamps every URL question of a map with the scope the callback gives it;
//   the same map when nothing lacked an id
import { elicitationIdOf, withElicitationId, withElicitationIds } from "../../../src/elicitation/elicitation-id";
import { Elicitation } from "../../../src/elicitation/elicitation";

const CONNECT = Elicitation.url("Connect", "https://example.com/connect");
const FORM = Elicitation.form("Who?", { type: "object", properties: { name: { type: "string" } } });

describe("elicitationIdOf", () => {
  it("is 22 base64url characters of the scope and key alone", () => {
    const id = elicitationIdOf("operation-1", "consent");
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(elicitationIdOf("operation-1", "consent")).toBe(id);
    // A fixed value: another process, instance or release derives the very same id.
    expect(id).toBe("44zoW5SrkRnRgzecN5nbSJ");
    expect(elicitationIdOf("operation-2", "consent")).not.toBe(id);
    expect(elicitationIdOf("operation-1", "other")).not.toBe(id);
    // The separator keeps ("ab", "c") apart from ("a", "bc").
    expect(elicitationIdOf("ab", "c")).not.toBe(elicitationIdOf("a", "bc"));
    expect(id).not.toContain("operation");
  });
});

describe("withElicitationId", () => {
  it("appends the id to a URL question in a new frozen request", () => {
    const stamped = withElicitationId(CONNECT, "id-1");
    expect(JSON.stringify(stamped)).toBe(
      '{"method":"elicitation/create","params":{"mode":"url","message":"Connect","url":"https://example.com/connect","elicitationId":"id-1"}}',
    );
    expect(Object.isFrozen(stamped) && Object.isFrozen(stamped.params)).toBe(true);
    expect(CONNECT.params).not.toHaveProperty("elicitationId");
  });

  it("leaves a form question, and a URL question with an id, as they are", () => {
    expect(withElicitationId(FORM, "id-1")).toBe(FORM);
    const stamped = withElicitationId(CONNECT, "id-1");
    expect(withElicitationId(stamped, "id-2")).toBe(stamped);
  });
});

describe("withElicitationIds", () => {
  it("stamps every URL question with the scope given for it, and returns the same map when none lacked one", () => {
    const scopes: string[] = [];
    const requests = { who: FORM, connect: CONNECT };
    const stamped = withElicitationIds(requests, (key, request) => (scopes.push(`${key} ${request.params.url}`), "flow-9"));
    expect(scopes).toEqual(["connect https://example.com/connect"]);
    expect(stamped.who).toBe(FORM);
    expect((stamped.connect!.params as { elicitationId?: string }).elicitationId).toBe(elicitationIdOf("flow-9", "connect"));
    expect(requests.connect).toBe(CONNECT);
    expect(withElicitationIds(stamped, () => "other")).toBe(stamped);
    const formsOnly = { who: FORM };
    expect(withElicitationIds(formsOnly, () => "x")).toBe(formsOnly);
  });
});
