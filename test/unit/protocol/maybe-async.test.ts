/*
 * Pins andThen / isThenable (protocol/maybe-async), the chaining of the dispatcher's usually
 * synchronous steps:
 * - a plain value goes to `next` at once, and `next`'s own result (value or promise) is returned
 *   as it is; nothing is wrapped;
 * - a promise or any thenable is awaited first, as `await` would, and a promise comes back;
 * - a synchronous throw of `next` is thrown to the caller; a rejection rejects;
 * - isThenable is true for objects and functions with a callable `then`, false for anything else.
 */
import { andThen, isThenable } from "../../../src/protocol/maybe-async";

describe("andThen", () => {
  it("calls next at once for a plain value and returns what next returns", () => {
    const calls: unknown[] = [];
    const result = andThen(2, (n) => {
      calls.push(n);
      return n * 10;
    });
    expect(calls).toEqual([2]);
    expect(result).toBe(20);
    const pending = Promise.resolve(5);
    expect(andThen(1, () => pending)).toBe(pending);
  });

  it("awaits a promise or a thenable first, and returns a promise", async () => {
    const fromPromise = andThen(Promise.resolve(3), (n) => n + 1);
    expect(fromPromise).toBeInstanceOf(Promise);
    await expect(fromPromise).resolves.toBe(4);
    // A thenable that is not a Promise (as a library might return).
    const thenable = { then: (resolve: (value: number) => void) => resolve(7) } as unknown as PromiseLike<number>;
    await expect(andThen(thenable, (n) => n * 2)).resolves.toBe(14);
  });

  it("throws a synchronous throw of next, and rejects with a rejection", async () => {
    expect(() =>
      andThen(1, () => {
        throw new Error("now");
      }),
    ).toThrow("now");
    await expect(andThen(Promise.reject(new Error("later")), (n) => n)).rejects.toThrow("later");
    await expect(
      andThen(Promise.resolve(1), () => {
        throw new Error("after");
      }),
    ).rejects.toThrow("after");
  });
});

describe("isThenable", () => {
  it("tells thenables from everything else", () => {
    const callable = Object.assign(() => undefined, { then: () => undefined });
    for (const yes of [Promise.resolve(), { then() {} }, callable]) expect(isThenable(yes)).toBe(true);
    for (const no of [undefined, null, 0, "then", { then: 1 }, [], () => undefined]) expect(isThenable(no)).toBe(false);
  });
});
