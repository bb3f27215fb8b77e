// Pins SessionOptions, the bounds of a 2025 session: defaults as documented; a bound that is not
// a positive integer, or an unknown option, is refused naming it; a round's sealed state lives the
// wait for the answer plus 60 s, so a wait over 840 s (sealed state lives at most 900 s) is refused.
import { resolveSessionOptions, roundStateSeconds, SESSION_DEFAULTS } from "../../../../../src/server/http/sessions/session-options";

describe("SessionOptions", () => {
  it("applies the documented defaults and refuses what is not a positive integer", () => {
    expect(resolveSessionOptions()).toEqual({
      idleTimeoutMs: 1_800_000,
      maxLifetimeMs: 86_400_000,
      maxSessions: 10_000,
      maxSessionsPerPrincipal: 32,
      maxPendingRequests: 16,
      answerTimeoutMs: 600_000,
      maxReplayEvents: 512,
      replayLifetimeMs: 900_000,
      takeoverAfterMs: 5_000,
      retryMs: 1_000,
    });
    expect(resolveSessionOptions({ maxSessions: 3 }).maxSessions).toBe(3);
    expect(() => resolveSessionOptions({ answerTimeoutMs: 0 })).toThrow("sessions.answerTimeoutMs must be a positive integer, got 0");
    expect(() => resolveSessionOptions({ idleTimeout: 5 } as never)).toThrow("unknown option sessions.idleTimeout");
    expect(Object.isFrozen(SESSION_DEFAULTS)).toBe(true);
  });

  it("gives a round's sealed state the wait for the answer plus 60 s, and refuses a wait it cannot outlive", () => {
    expect(roundStateSeconds(resolveSessionOptions())).toBe(660);
    expect(roundStateSeconds(resolveSessionOptions({ answerTimeoutMs: 1 }))).toBe(61);
    expect(roundStateSeconds(resolveSessionOptions({ answerTimeoutMs: 840_000 }))).toBe(900);
    expect(() => resolveSessionOptions({ answerTimeoutMs: 840_001 })).toThrow(
      "McpApp.create: sessions.answerTimeoutMs must be at most 840000 ms, got 840001",
    );
  });
});
