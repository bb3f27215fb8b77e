// Pins SessionToken: a session id opens only for the principal it was sealed for; two ids for the
// same facts differ.
import { StateSealer } from "../../../../../src/state/state-sealer";
import { SessionToken } from "../../../../../src/server/http/sessions/session-token";
import { MemoryLogger } from "../../../../../src/testing/index";

describe("SessionToken", () => {
  it("opens only for its principal, and two ids for the same facts differ", () => {
    const tokens = new SessionToken(new StateSealer({ secret: "a secret of more than thirty-two bytes!!" }, new MemoryLogger()), 60_000);
    const facts = { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } };
    const id = tokens.seal(facts, "alice");
    expect(tokens.seal(facts, "alice")).not.toBe(id);
    expect(tokens.open(id, "alice")).toEqual(facts);
    expect(tokens.open(id, "bob")).toBeUndefined();
    expect(tokens.open(id, null)).toBeUndefined();
    expect(tokens.open(`${id}x`, "alice")).toBeUndefined();
  });
});
