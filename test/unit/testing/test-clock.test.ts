// Pins createTestClock: it starts at a fixed instant, advances by seconds, can be set, refuses bad
// values, and its `now` works detached (as a state option).
import { TEST_CLOCK_START, createTestClock } from "roundtrip-mcp/testing";

describe("createTestClock", () => {
  it("starts fixed, advances by seconds and can be set", () => {
    const clock = createTestClock();
    const { now } = clock;
    expect(now()).toBe(TEST_CLOCK_START);
    clock.advance(301);
    expect(now()).toBe(TEST_CLOCK_START + 301_000);
    clock.advance(0.5);
    expect(now()).toBe(TEST_CLOCK_START + 301_500);
    clock.set(new Date("2030-01-01T00:00:00Z"));
    expect(now()).toBe(Date.parse("2030-01-01T00:00:00Z"));
    expect(createTestClock(42).now()).toBe(42);
  });

  it("refuses going backwards and non-finite values", () => {
    const clock = createTestClock();
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => createTestClock(new Date("nope"))).toThrow(RangeError);
  });
});
