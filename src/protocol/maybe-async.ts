/**
 * Steps that are usually synchronous (binding validated by a compiled fast path, a handler that
 * returns its value, shaping it) chained without a promise per step: a promise, its reaction and
 * a microtask hop each cost allocation and time on every request, for nothing when the value is
 * already there. A step that does return a promise (a DTO that needs class-validator, an async
 * handler) is awaited as before.
 */

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | PromiseLike<T>;

/** Whether `value` is a thenable, as `await` tells (any object or function with a callable `then`). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * `next(value)` at once when `value` is not a thenable; else a promise of it once `value`
 * settles, as `next(await value)` would be. A synchronous throw of `next` is thrown to the
 * caller, a rejection rejects: callers catch both.
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

/**
 * `run()`, with a synchronous throw turned into a rejected promise: for callers promised a
 * rejection, never a throw, while a synchronous success stays synchronous.
 */
export function throwsAsRejection<T>(run: () => MaybePromise<T>): MaybePromise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `steps`, a generator that yields what it would `await`, synchronously for as long as what
 * it yields is not a thenable (each value goes straight back in); from the first thenable on, as
 * an async function would (a rejection is thrown into the generator). Returns the generator's
 * result, or a promise of it once it has waited. A synchronous throw of the generator is thrown
 * to the caller.
 */
export function drive<T>(steps: Generator<unknown, T, unknown>): MaybePromise<T> {
  return advance(steps, steps.next(undefined));
}

function advance<T>(steps: Generator<unknown, T, unknown>, step: IteratorResult<unknown, T>): MaybePromise<T> {
  while (!step.done) {
    const yielded = step.value;
    if (isThenable(yielded)) {
      return Promise.resolve(yielded).then(
        (value) => advance(steps, steps.next(value)),
        (error: unknown) => advance(steps, steps.throw(error)),
      );
    }
    step = steps.next(yielded);
  }
  return step.value;
}
