/** Where a test clock starts unless told otherwise: fixed, so sealed state is reproducible. */
export const TEST_CLOCK_START = Date.parse("2026-07-28T00:00:00Z");

/**
 * A clock a test moves by hand. Pass `clock.now` as the app's `state.now` so that sealed
 * `requestState` expires when the test says so, not when the wall clock does.
 *
 * @example const clock = createTestClock(); McpApp.create({ components, state: { secret, now: clock.now } }); clock.advance(301);
 */
export interface TestClock {
  /** Milliseconds since the epoch, like `Date.now` (a bound function: pass it as is). */
  readonly now: () => number;
  /** Moves the clock forward by `seconds` (fractions allowed). */
  advance(seconds: number): void;
  /** Sets the clock to a date or to milliseconds since the epoch. */
  set(time: Date | number): void;
}

/**
 * A new test clock at `start` (default 2026-07-28T00:00:00Z).
 *
 * @example const clock = createTestClock(); clock.advance(300); expect(clock.now()).toBe(TEST_CLOCK_START + 300_000);
 */
export function createTestClock(start: Date | number = TEST_CLOCK_START): TestClock {
  let current = toMillis(start, "createTestClock");
  return {
    now: () => current,
    advance(seconds: number) {
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
        throw new RangeError(`clock.advance: seconds must be a finite number >= 0, got ${String(seconds)}`);
      }
      current += Math.round(seconds * 1000);
    },
    set(time: Date | number) {
      current = toMillis(time, "clock.set");
    },
  };
}

function toMillis(time: Date | number, where: string): number {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== "number" || !Number.isFinite(ms)) throw new RangeError(`${where}: expected a Date or milliseconds since the epoch`);
  return ms;
}
