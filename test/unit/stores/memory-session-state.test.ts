// Pins MemorySessionState, the 2025 sessions' shared state in one process (every app on one
// MemoryMessageBus shares it): the SessionStateStore contract (test/unit/stores/session-state-contract.ts);
// a memory bus offers one state to every app on it, and says it is shared.
import { MemorySessionState } from "../../../src/stores/memory-session-state";
import { MemoryMessageBus } from "../../../src/stores/message-bus";
import { sessionStateOf } from "../../../src/stores/session-state";
import { sessionStateContract } from "./session-state-contract";

sessionStateContract("MemorySessionState", async () => ({ state: new MemorySessionState(true), prefix: "" }));

describe("a memory bus's session state", () => {
  it("is one state, shared, for every app on the bus", () => {
    const bus = new MemoryMessageBus();
    const state = sessionStateOf(bus);
    expect(state?.shared).toBe(true);
    expect(sessionStateOf(bus)).toBe(state);
    expect(sessionStateOf(new MemoryMessageBus())).not.toBe(state);
    expect(sessionStateOf({})).toBeUndefined();
  });
});
