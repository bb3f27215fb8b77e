/** Most distinct header values whose verdicts a listener keeps; past it, the cache starts over. */
const MAX_VERDICTS = 256;

/** Verdicts of a pure check on a header value (undefined: accepted; else the refusal), kept per value. */
export class VerdictCache<V extends string | undefined> {
  private readonly verdicts = new Map<V, string | undefined>();
  constructor(private readonly check: (value: V) => string | undefined) {}

  get(value: V): string | undefined {
    if (this.verdicts.has(value)) return this.verdicts.get(value);
    const verdict = this.check(value);
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.clear();
    this.verdicts.set(value, verdict);
    return verdict;
  }
}
