/** Longest text `withinLimitsByCount` counts; a longer one is scanned. */
const COUNTED_CHARS = 4096;

/**
 * Whether `text` is certain to be within a request's structural limits from counts alone, by a
 * few native searches instead of the scan (`scanJsonText`, whose limits give the three bounds):
 * every count the scan keeps grows by at most one per character it passes, outside strings only,
 * so is at most the count of that character in the whole text. Depth grows at `{` and `[`
 * (`maxDepth`), keys at `:` (the smaller of `maxKeys` and `maxObjectKeys`), array elements at `[`
 * and `,` and a string's length by one per character (both at most the length: the smaller of
 * `maxArrayItems` and `maxStringLength`). False means only "not certain": the scan decides.
 */
export function withinLimitsByCount(text: string, maxDepth: number, maxColons: number, maxLength: number): boolean {
  if (text.length > COUNTED_CHARS || text.length > maxLength) return false;
  return (
    occurrences(text, "{", occurrences(text, "[", 0, maxDepth), maxDepth) <= maxDepth && occurrences(text, ":", 0, maxColons) <= maxColons
  );
}

/** `counted` plus the occurrences of `char` in `text`, counted until the total passes `most`. */
function occurrences(text: string, char: string, counted: number, most: number): number {
  for (let at = text.indexOf(char); at !== -1 && counted <= most; at = text.indexOf(char, at + 1)) counted++;
  return counted;
}
