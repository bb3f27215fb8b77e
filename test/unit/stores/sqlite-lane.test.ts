/*
 * Pins SqliteLane, the queue every SQLite store operation goes through (sqlite-lane.ts):
 * - work runs at once when nothing is queued, in order otherwise, and any error but a lock
 *   error rejects that piece alone;
 * - work that meets a lock error (SQLITE_BUSY_*, SQLITE_LOCKED_*) is tried again on a timer
 *   until it succeeds, and only the head tries: however many pieces wait, each pause costs one try;
 * - a piece still locked out `waitMs` after it was queued fails with the lane's timeout error
 *   (the lock error as its cause), and so does every piece queued behind it whose time is up;
 * - close() rejects what is queued and anything run later.
 */
import { performance } from "node:perf_hooks";
import { SqliteLane, isLockError } from "../../../src/stores/sqlite-lane";

const busy = (code = "SQLITE_BUSY") => Object.assign(new Error("database is locked"), { code });
const timedOut = (lockError: unknown, waitedMs: number) => new Error(`locked for ${Math.round(waitedMs)} ms`, { cause: lockError });

/** Work that throws a lock error while `locked()` and counts its tries. */
function lockable(locked: () => boolean, value: string) {
  const piece = {
    tries: 0,
    work: () => {
      piece.tries++;
      if (locked()) throw busy();
      return value;
    },
  };
  return piece;
}

describe("SqliteLane", () => {
  it("tells lock errors by their extended codes", () => {
    expect(
      ["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED", "SQLITE_LOCKED_SHAREDCACHE"].map((code) => isLockError(busy(code))),
    ).toEqual([true, true, true, true]);
    expect(["SQLITE_FULL", "SQLITE_READONLY", "EBUSY"].map((code) => isLockError(busy(code)))).toEqual([false, false, false]);
    expect([undefined, null, new Error("x")].map(isLockError)).toEqual([false, false, false]);
  });

  it("runs work at once and in order; an error that is not a lock's rejects that piece alone", async () => {
    const lane = new SqliteLane(1000, timedOut);
    const order: string[] = [];
    const first = lane.run(() => (order.push("first"), 1));
    expect(order).toEqual(["first"]);
    const failing = lane.run(() => {
      throw new TypeError("a bug");
    });
    const third = lane.run(() => (order.push("third"), 3));
    await expect(first).resolves.toBe(1);
    await expect(failing).rejects.toThrow(TypeError);
    await expect(third).resolves.toBe(3);
    expect(order).toEqual(["first", "third"]);
  });

  it("retries locked work on a timer, only the head trying, and runs the queue in order once the lock is gone", async () => {
    let locked = true;
    const lane = new SqliteLane(5000, timedOut);
    const pieces = Array.from({ length: 50 }, (_, i) => lockable(() => locked, `piece ${i}`));
    const results = pieces.map((piece) => lane.run(piece.work));
    while (pieces[0]!.tries < 5) await new Promise((resolve) => setTimeout(resolve, 1));
    // 50 pieces wait, one tries.
    expect(pieces.slice(1).map((p) => p.tries)).toEqual(pieces.slice(1).map(() => 0));
    locked = false;
    expect(await Promise.all(results)).toEqual(pieces.map((_, i) => `piece ${i}`));
    expect(pieces.slice(1).map((p) => p.tries)).toEqual(pieces.slice(1).map(() => 1));
  });

  it("fails work still locked out after waitMs, and what is queued behind it whose time is up, with the lock error as cause", async () => {
    const lane = new SqliteLane(100, timedOut);
    const started = performance.now();
    const outcomes = await Promise.allSettled([lane.run(lockable(() => true, "a").work), lane.run(lockable(() => true, "b").work)]);
    const waited = performance.now() - started;
    for (const outcome of outcomes)
      expect(outcome).toMatchObject({
        status: "rejected",
        reason: { message: expect.stringMatching(/^locked for \d+ ms$/), cause: { code: "SQLITE_BUSY" } },
      });
    expect(waited).toBeGreaterThanOrEqual(99);
    expect(waited).toBeLessThan(1000);
    await expect(lane.run(() => "free")).resolves.toBe("free");
  });

  it("fails at once with waitMs 0", async () => {
    const lane = new SqliteLane(0, timedOut);
    const piece = lockable(() => true, "x");
    await expect(lane.run(piece.work)).rejects.toThrow(/^locked for \d+ ms$/);
    expect(piece.tries).toBe(1);
  });

  it("close() rejects what is queued and what comes later, and stops trying", async () => {
    const lane = new SqliteLane(5000, timedOut);
    const piece = lockable(() => true, "x");
    const waiting = lane.run(piece.work);
    const closed = new Error("closed");
    lane.close(closed);
    await expect(waiting).rejects.toBe(closed);
    await expect(lane.run(() => "late")).rejects.toBe(closed);
    const tries = piece.tries;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(piece.tries).toBe(tries);
  });
});
