/*
 * Pins andThen / isThenable (protocol/maybe-async), the chaining of the dispatcher's usually
 * synchronous steps:
 * - a plain value goes to `next` at once, and `next`'s own result (value or promise) is returned
 *   as it is; nothing is wrapped;
 * - a promise or any thenable is awaited first, as `await` would, and a promise comes back;
 * - a synchronous throw of `next` is thrown to the caller; a rejection rejects;
 * - isThenable is true for objects and functions with a callable `then`, false for anything else;
 * - drive runs a generator synchronously while it yields plain values (each goes straight back
 *   in) and returns its result; from the first thenable on it returns a promise, resuming with
 *   each settled value and throwing each rejection into the generator, where try/catch sees it;
 *   a synchronous throw of the generator is thrown to the caller.
 */
import { andThen, drive, isThenable } from "../../../src/protocol/maybe-async";

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

describe("drive", () => {
  it("runs synchronously while the generator yields plain values", () => {
    function* steps(): Generator<unknown, number, unknown> {
      const a = (yield 2) as number;
      const b = (yield 3) as number;
      return a * b;
    }
    expect(drive(steps())).toBe(6);
  });

  it("turns into a promise at the first thenable, resuming with settled values", async () => {
    const seen: unknown[] = [];
    function* steps(): Generator<unknown, string, unknown> {
      seen.push(yield 1);
      seen.push(yield Promise.resolve(2));
      seen.push(yield 3);
      return "done";
    }
    const result = drive(steps());
    expect(result).toBeInstanceOf(Promise);
    expect(seen).toEqual([1]);
    await expect(result).resolves.toBe("done");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("throws a rejection into the generator, and a generator's own throw to the caller", async () => {
    function* recovers(): Generator<unknown, string, unknown> {
      try {
        yield Promise.reject(new Error("refused"));
        return "not reached";
      } catch (error) {
        return `caught ${(error as Error).message}`;
      }
    }
    await expect(drive(recovers())).resolves.toBe("caught refused");
    function* fails(): Generator<unknown, never, unknown> {
      yield 1;
      throw new Error("broken");
    }
    expect(() => drive(fails())).toThrow("broken");
    function* failsLater(): Generator<unknown, never, unknown> {
      yield Promise.resolve(1);
      throw new Error("broken later");
    }
    await expect(drive(failsLater())).rejects.toThrow("broken later");
  });
});
