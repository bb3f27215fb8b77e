// Pins the allocation arithmetic of the HTTP benchmark's memory probe (servers/heap-allocation.ts):
// - with no collection, the bytes allocated are the used heap's growth from start to end;
// - each collection's freeing is not subtracted: the growth before it and the growth after it add up;
// - several collections add the growth of every stretch between them, in order;
// - a stretch in which the used heap shrank without a collection counts 0, never negative.
import { allocatedBytes } from "./servers/heap-allocation";

describe("allocatedBytes", () => {
  it("is the growth from start to end when nothing was collected", () => {
    expect(allocatedBytes(1_000, [], 4_500)).toBe(3_500);
  });

  it("adds the growth before a collection to the growth after it", () => {
    // 1,000 -> 9,000 (8,000 allocated), collected down to 2,000, then -> 5,000 (3,000 more).
    expect(allocatedBytes(1_000, [{ before: 9_000, after: 2_000 }], 5_000)).toBe(11_000);
  });

  it("counts all allocation even when the heap ends where it started", () => {
    expect(allocatedBytes(100, [{ before: 600, after: 100 }], 100)).toBe(500);
  });

  it("adds every stretch between collections, in order", () => {
    const collections = [
      { before: 3_000, after: 1_500 },
      { before: 4_000, after: 1_000 },
      { before: 2_500, after: 2_000 },
    ];
    // (3,000 - 1,000) + (4,000 - 1,500) + (2,500 - 1,000) + (2,200 - 2,000)
    expect(allocatedBytes(1_000, collections, 2_200)).toBe(2_000 + 2_500 + 1_500 + 200);
  });

  it("counts a stretch that shrank without a collection as 0", () => {
    // The heap read 5,000 at the start but 4,000 before the first collection; it ended below the last.
    expect(
      allocatedBytes(
        5_000,
        [
          { before: 4_000, after: 1_000 },
          { before: 3_000, after: 2_000 },
        ],
        1_500,
      ),
    ).toBe(0 + 2_000 + 0);
  });
});
