// The contract every SessionStateStore keeps (src/stores/session-state.ts), run against the
// memory store (test/unit/stores) and the PostgreSQL one (test/postgres). What it pins:
// - events: appended once (a second append of a position is ignored), read back after a position
//   in (generation, number) order; a session keeps about `keepPerSession` of its newest events;
// - calls: a round is recorded (inserted, then replaced with its answers cleared) only while the
//   row's owner and generation are the writer's; an answer is recorded once, for a question the
//   round waits for ("not-waiting" otherwise, "unknown" for a stream with no call);
// - takeover: a call is claimed (one generation up) only when its owner released it or is not
//   alive (no heartbeat, retired, or its heartbeat lapsed), only at its current generation, never
//   once finished;
// - settings saved, read, dropped, and gone after their lifetime; a sweep deletes what is older
//   than the lifetime it is given.
import type { CallRow, SessionStateStore, StreamEventRow } from "../../../src/stores/session-state";

const event = (stream: string, gen: number, seq: number, session = "s1"): StreamEventRow => ({
  stream,
  session,
  gen,
  seq,
  body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { seq } }),
});

const round = (stream: string, owner: string | null, gen: number, waiting: string[]): CallRow => ({
  stream,
  session: "s1",
  owner,
  gen,
  request: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "pick" } },
  round: { n: 1, questions: waiting.map((id) => ({ key: id, wireId: id })) },
  waiting,
  answers: {},
  finished: false,
});

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Runs the contract; `fresh()` gives an empty store whose stream and instance names do not collide with another run's. */
export function sessionStateContract(name: string, fresh: () => Promise<{ state: SessionStateStore; prefix: string }>): void {
  describe(`${name} keeps the SessionStateStore contract`, () => {
    let state: SessionStateStore;
    let p: string;
    beforeEach(async () => {
      ({ state, prefix: p } = await fresh());
    });

    it("appends events once and reads them back in order after a position", async () => {
      await state.appendEvents([event(`${p}a`, 0, 1), event(`${p}a`, 0, 2), event(`${p}b`, 0, 1)], 512);
      await state.appendEvents([event(`${p}a`, 1, 1), event(`${p}a`, 0, 2), event(`${p}a`, 0, 3)], 512);
      expect((await state.eventsAfter(`${p}a`, 0, 1)).map((e) => [e.gen, e.seq])).toEqual([
        [0, 2],
        [0, 3],
        [1, 1],
      ]);
      expect((await state.eventsAfter(`${p}a`, -1, -1))[0]).toEqual(event(`${p}a`, 0, 1));
      expect(await state.eventsAfter(`${p}none`, -1, -1)).toEqual([]);
    });

    it("keeps about keepPerSession of a session's newest events", async () => {
      for (let seq = 1; seq <= 200; seq++) await state.appendEvents([event(`${p}a`, 0, seq, `${p}s`)], 50);
      const kept = (await state.eventsAfter(`${p}a`, -1, -1)).map((e) => e.seq);
      expect(kept.length).toBeGreaterThanOrEqual(50);
      expect(kept.length).toBeLessThanOrEqual(50 + 32);
      expect(kept.slice(-50)).toEqual(Array.from({ length: 50 }, (_, i) => 151 + i));
    });

    it("records a round and its answers only for the owner and generation that hold the call", async () => {
      expect(await state.saveRound(round(`${p}c`, `${p}A`, 0, ["q1", "q2"]))).toBe(true);
      expect(await state.recordAnswer(`${p}c`, "q1", { result: { action: "accept" } })).toEqual({
        kind: "recorded",
        owner: `${p}A`,
        gen: 0,
      });
      expect(await state.recordAnswer(`${p}c`, "q1", { result: {} })).toEqual({ kind: "not-waiting" });
      expect(await state.recordAnswer(`${p}c`, "q9", { result: {} })).toEqual({ kind: "not-waiting" });
      expect(await state.recordAnswer(`${p}none`, "q1", { result: {} })).toEqual({ kind: "unknown" });
      const held = await state.loadCall(`${p}c`);
      expect(held).toMatchObject({
        owner: `${p}A`,
        gen: 0,
        waiting: ["q2"],
        answers: { q1: { result: { action: "accept" } } },
        finished: false,
      });
      expect(held!.request).toEqual(round(`${p}c`, null, 0, []).request);
      // The next round replaces the last and clears its answers; another owner or generation may not write.
      expect(await state.saveRound(round(`${p}c`, `${p}A`, 0, ["q3"]))).toBe(true);
      expect(await state.loadCall(`${p}c`)).toMatchObject({ waiting: ["q3"], answers: {} });
      expect(await state.saveRound(round(`${p}c`, `${p}B`, 0, ["q4"]))).toBe(false);
      expect(await state.saveRound(round(`${p}c`, `${p}A`, 1, ["q4"]))).toBe(false);
      await state.finishCall(`${p}c`, 0);
      expect(await state.recordAnswer(`${p}c`, "q3", { result: {} })).toEqual({ kind: "not-waiting" });
      expect(await state.saveRound(round(`${p}c`, `${p}A`, 0, ["q5"]))).toBe(false);
    });

    it("lets a call be claimed only from an owner that released it or is not alive, at its generation, until it finishes", async () => {
      await state.beat(`${p}A`, 60_000);
      await state.saveRound(round(`${p}c`, `${p}A`, 0, ["q1"]));
      expect(await state.isAlive(`${p}A`)).toBe(true);
      expect(await state.claimCall(`${p}c`, 0, `${p}B`)).toBeUndefined();
      await state.retire(`${p}A`);
      expect(await state.isAlive(`${p}A`)).toBe(false);
      expect(await state.claimCall(`${p}c`, 1, `${p}B`)).toBeUndefined();
      const claimed = await state.claimCall(`${p}c`, 0, `${p}B`);
      expect(claimed).toMatchObject({ owner: `${p}B`, gen: 1, waiting: ["q1"] });
      // The old owner's writes are refused from now on; the new one's are kept.
      expect(await state.saveRound(round(`${p}c`, `${p}A`, 0, ["q2"]))).toBe(false);
      expect(await state.recordAnswer(`${p}c`, "q1", { result: {} })).toEqual({ kind: "recorded", owner: `${p}B`, gen: 1 });
      // Released while its owner is alive: claimable at once.
      await state.beat(`${p}B`, 60_000);
      await state.releaseCall(`${p}c`, 1, `${p}B`);
      expect(await state.claimCall(`${p}c`, 1, `${p}C`)).toMatchObject({ owner: `${p}C`, gen: 2 });
      await state.finishCall(`${p}c`, 2);
      await state.retire(`${p}C`);
      expect(await state.claimCall(`${p}c`, 2, `${p}D`)).toBeUndefined();
    });

    it("takes an instance whose heartbeat lapsed for gone, and one that never beat", async () => {
      expect(await state.isAlive(`${p}never`)).toBe(false);
      await state.beat(`${p}short`, 100);
      expect(await state.isAlive(`${p}short`)).toBe(true);
      await eventually("the heartbeat to lapse", async () => !(await state.isAlive(`${p}short`)));
    });

    it("keeps a session's settings for their lifetime", async () => {
      await state.saveSettings(`${p}s`, { level: "warning", subscriptions: ["notes://one"] }, 60_000);
      expect(await state.loadSettings(`${p}s`)).toEqual({ level: "warning", subscriptions: ["notes://one"] });
      await state.saveSettings(`${p}s`, { subscriptions: [] }, 60_000);
      expect(await state.loadSettings(`${p}s`)).toEqual({ subscriptions: [] });
      await state.dropSettings(`${p}s`);
      expect(await state.loadSettings(`${p}s`)).toBeUndefined();
      await state.saveSettings(`${p}t`, { subscriptions: [] }, 50);
      await eventually("the settings to expire", async () => (await state.loadSettings(`${p}t`)) === undefined);
    });

    it("sweeps events and calls older than the lifetime", async () => {
      await state.appendEvents([event(`${p}old`, 0, 1)], 512);
      await state.saveRound(round(`${p}old`, `${p}A`, 0, ["q1"]));
      await new Promise((resolve) => setTimeout(resolve, 30));
      await state.sweep(10_000);
      expect(await state.eventsAfter(`${p}old`, -1, -1)).toHaveLength(1);
      await state.sweep(10);
      expect(await state.eventsAfter(`${p}old`, -1, -1)).toEqual([]);
      expect(await state.loadCall(`${p}old`)).toBeUndefined();
    });
  });
}
