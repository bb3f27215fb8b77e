// Pins the list result every list method answers, and its pages:
// - a list that fits one page: every item, `resultType: "complete"`, the app's cache hints, no
//   nextCursor, and the same frozen object for every request of the same list (so a transport
//   may keep its encoding);
// - a longer list: pages of `pageSize` in the list's order, each with the same cache hints, a
//   `nextCursor` on every page but the last; walking them gives every entry once; the last page
//   is one frozen object for every caller, and the entries of every other page one frozen array
//   with its JSON text kept;
// - a cursor is good only where it was issued: tampered, forged, for another list, for another
//   principal, for another view of the list (filtered otherwise, or changed), expired, or a
//   requestState token: each is -32602 with the one message naming the fix; without a sealer,
//   every list is one page and any cursor is refused.
import { ListCursors, INVALID_CURSOR_MESSAGE } from "../../../src/features/list-cursor";
import { listResult, type ListPaging } from "../../../src/features/list-result";
import { encodedTextOf } from "../../../src/protocol/encoded-json";
import { McpError } from "../../../src/protocol/errors";
import type { InboundRequest } from "../../../src/protocol/inbound-request";
import type { JsonObject } from "../../../src/protocol/wire-types";
import { StateSealer } from "../../../src/state/state-sealer";
import { MemoryLogger } from "../../../src/testing/index";

const request = (params: JsonObject, principal: string | null = "alice", method = "tools/list"): InboundRequest => ({
  method,
  params,
  principal,
  clientCapabilities: {},
});
const frozenList = (n: number, prefix = "t"): readonly JsonObject[] =>
  Object.freeze(Array.from({ length: n }, (_, i) => Object.freeze({ name: `${prefix}${String(i).padStart(2, "0")}` })));
const CACHE = { ttlMs: 5, cacheScope: "public" } as const;

let now = 1_700_000_000_000;
const sealer = new StateSealer({ secret: "x".repeat(32), now: () => now }, new MemoryLogger());
const paging = (pageSize: number): ListPaging => ({ cache: CACHE, pageSize, cursors: new ListCursors(() => sealer) });

function refused(call: () => unknown): McpError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error("not refused");
}

function expectInvalidCursor(call: () => unknown): void {
  const error = refused(call);
  expect(error.code).toBe(-32602);
  expect(error.message).toBe(INVALID_CURSOR_MESSAGE);
  expect(error.message).toContain("list again without a cursor");
}

describe("listResult", () => {
  it("answers a list that fits one page with every item and the cache hints, the same frozen page each time", () => {
    const items = frozenList(2);
    const first = listResult(request({}), "tools", items, paging(100));
    expect(first).toEqual({ resultType: "complete", tools: items, ...CACHE });
    expect(first).not.toHaveProperty("nextCursor");
    expect(listResult(request({ _meta: { x: 1 } }, "bob"), "tools", items, paging(100))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(listResult(request({}), "tools", frozenList(2), paging(100))).not.toBe(first);
  });

  it("pages a longer list in order, every page with the same cache hints, until no nextCursor", () => {
    const items = frozenList(7);
    const pages: JsonObject[] = [];
    let cursor: string | undefined;
    do {
      const page = listResult(request(cursor === undefined ? {} : { cursor }), "tools", items, paging(3));
      pages.push(page);
      cursor = page.nextCursor as string | undefined;
    } while (cursor !== undefined);
    expect(pages.map((p) => (p.tools as JsonObject[]).map((t) => t.name))).toEqual([["t00", "t01", "t02"], ["t03", "t04", "t05"], ["t06"]]);
    for (const page of pages) expect([page.resultType, page.ttlMs, page.cacheScope]).toEqual(["complete", 5, "public"]);
    expect(pages.slice(0, 2).every((p) => typeof p.nextCursor === "string")).toBe(true);
    // The last page is the caller's no more than the only page is: one object for everyone.
    const bobCursor = listResult(request({}, "bob"), "tools", items, paging(3)).nextCursor as string;
    const bobSecond = listResult(request({ cursor: bobCursor }, "bob"), "tools", items, paging(3));
    const bobLast = listResult(request({ cursor: bobSecond.nextCursor }, "bob"), "tools", items, paging(3));
    expect(bobLast).toBe(pages[2]);
    // A page followed by others is the caller's (its cursor), around one frozen array of entries
    // for everyone, whose JSON text is kept for the transport to splice.
    expect(bobSecond).not.toBe(pages[1]);
    expect(bobSecond.tools).toBe(pages[1]!.tools);
    expect(Object.isFrozen(pages[0]!.tools)).toBe(true);
    expect(encodedTextOf(pages[0]!.tools)).toBe(JSON.stringify(pages[0]!.tools));
  });

  describe("a cursor used where it was not issued", () => {
    const items = frozenList(5);
    const cursor = () => listResult(request({}), "tools", items, paging(2)).nextCursor as string;

    it("refuses one tampered with or forged", () => {
      const good = cursor();
      const flipped = good.slice(0, -3) + (good.at(-3) === "A" ? "B" : "A") + good.slice(-2);
      expectInvalidCursor(() => listResult(request({ cursor: flipped }), "tools", items, paging(2)));
      expectInvalidCursor(() => listResult(request({ cursor: "2" }), "tools", items, paging(2)));
      const other = new StateSealer({ secret: "y".repeat(32), now: () => now }, new MemoryLogger());
      const forged = new ListCursors(() => other);
      const foreign = listResult(request({}), "tools", items, { cache: CACHE, pageSize: 2, cursors: forged }).nextCursor;
      expectInvalidCursor(() => listResult(request({ cursor: foreign }), "tools", items, paging(2)));
    });

    it("refuses one from another list, another principal, or another view", () => {
      const good = cursor();
      expectInvalidCursor(() => listResult(request({ cursor: good }, "alice", "prompts/list"), "prompts", items, paging(2)));
      expectInvalidCursor(() => listResult(request({ cursor: good }, "mallory"), "tools", items, paging(2)));
      expectInvalidCursor(() => listResult(request({ cursor: good }, null), "tools", items, paging(2)));
      // The same entries filtered otherwise (another caller's view), or a changed list.
      expectInvalidCursor(() => listResult(request({ cursor: good }), "tools", [items[0]!, items[2]!, items[3]!, items[4]!], paging(2)));
      expectInvalidCursor(() => listResult(request({ cursor: good }), "tools", frozenList(5, "u"), paging(2)));
      // A view made of the same entries in the same order is the same view, even as a new array.
      expect(listResult(request({ cursor: good }), "tools", [...items], paging(2)).tools).toEqual([items[2], items[3]]);
    });

    it("refuses one past its lifetime, a requestState token, and any cursor without a sealer", () => {
      const good = cursor();
      const later = now;
      now += 901_000;
      try {
        expectInvalidCursor(() => listResult(request({ cursor: good }), "tools", items, paging(2)));
      } finally {
        now = later;
      }
      const state = sealer.seal(2, { requestMethod: "tools/list", requestParams: {} }, { principal: "alice" });
      expectInvalidCursor(() => listResult(request({ cursor: state }), "tools", items, paging(2)));
      expectInvalidCursor(() => listResult(request({ cursor: good }), "tools", items, { cache: CACHE, pageSize: 2 }));
      expect(listResult(request({}), "tools", items, { cache: CACHE, pageSize: 2 }).tools).toHaveLength(5);
    });
  });
});
