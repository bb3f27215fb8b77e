/**
 * How many AbortControllers `work` makes: the global constructor is replaced by a counting
 * subclass while it runs (and put back after, whatever happens). `madeSoFar` tells `work` the
 * count at any point of its own.
 */
export async function countAbortControllers(work: (madeSoFar: () => number) => Promise<unknown>): Promise<number> {
  const Original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      made++;
    }
  };
  try {
    await work(() => made);
  } finally {
    globalThis.AbortController = Original;
  }
  return made;
}
