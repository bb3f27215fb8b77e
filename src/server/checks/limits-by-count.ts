/** The structural limits of `RequestLimits` (request-limits.ts), which imports this file. */
interface CountedLimits {
  readonly maxDepth: number;
  readonly maxKeys: number;
  readonly maxObjectKeys: number;
  readonly maxArrayItems: number;
  readonly maxStringLength: number;
}

/** Longest text `withinLimitsByCount` counts; a longer one is scanned. */
const COUNTED_CHARS = 4096;

/**
 * Whether `text` is certain to be within every limit from counts alone, by a few native searches
 * instead of the scan: every count the scan keeps grows by at most one per character it passes,
 * outside strings only, and so is at most the count of that character in the whole text. Depth
 * grows at `{` and `[`, keys at `:`, array elements at `[` and `,` (at most the length), a string
 * is shorter than the text. False means only "not certain": the scan decides.
 */
export function withinLimitsByCount(text: string, limits: CountedLimits): boolean {
  const length = text.length;
  if (length > COUNTED_CHARS || length > limits.maxArrayItems || length > limits.maxStringLength) return false;
  return (
    occurrences(text, "{", occurrences(text, "[", 0, limits.maxDepth), limits.maxDepth) <= limits.maxDepth &&
    occurrences(text, ":", 0, Math.min(limits.maxKeys, limits.maxObjectKeys)) <= Math.min(limits.maxKeys, limits.maxObjectKeys)
  );
}

/** `counted` plus the occurrences of `char` in `text`, counted until the total passes `most`. */
function occurrences(text: string, char: string, counted: number, most: number): number {
  for (let at = text.indexOf(char); at !== -1 && counted <= most; at = text.indexOf(char, at + 1)) counted++;
  return counted;
}
