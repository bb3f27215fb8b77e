/*
 * The order of tools/list and prompts/list: `localeCompare(…, "en")`, without the collator on the
 * names a component may have. The first `localeCompare` with a locale loads ICU's collation data
 * (about 8 ms of a 2-core machine, before a stdio server's first answer, issue 24); on names of
 * A-Za-z0-9_.- (component-compiler.ts's NAME) that order is simple enough to write down, and
 * test/unit/features/name-order.property.test.ts pins it equal to localeCompare with fast-check.
 * A string with any other character is still compared by localeCompare.
 */

/** The collator's primary order of the allowed characters: `_ - .`, the digits, then the letters with case folded. */
const PRIMARY_ORDER = "_-.0123456789abcdefghijklmnopqrstuvwxyz";

/** The primary rank of each ASCII code (a letter's upper case ranks as its lower case); -1 outside the allowed characters. */
const PRIMARY = new Int8Array(128).fill(-1);
for (let rank = 0; rank < PRIMARY_ORDER.length; rank++) {
  const code = PRIMARY_ORDER.charCodeAt(rank);
  PRIMARY[code] = rank;
  if (code >= 0x61 && code <= 0x7a) PRIMARY[code - 0x20] = rank;
}

/** The primary rank of the code unit at `i`, or -1 when it is not an allowed character. */
function rankAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (PRIMARY[code] as number) : -1;
}

/** Whether every character of `text` is an allowed one. */
function allowed(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (rankAt(text, i) < 0) return false;
  return true;
}

/**
 * The sign of `a.localeCompare(b, "en")`: -1, 0 or 1. On allowed names, the collator's levels
 * written out: the first primary difference decides (a proper prefix first), and between names
 * equal but for case, the first position where the case differs (lower case first).
 */
export function compareNames(a: string, b: string): number {
  if (!allowed(a) || !allowed(b)) return Math.sign(a.localeCompare(b, "en"));
  const shorter = Math.min(a.length, b.length);
  let caseOrder = 0;
  for (let i = 0; i < shorter; i++) {
    const x = rankAt(a, i);
    const y = rankAt(b, i);
    if (x !== y) return x < y ? -1 : 1;
    // Same rank, different code unit: the same letter in two cases (lower case, 0x61 and up, first).
    if (caseOrder === 0 && a.charCodeAt(i) !== b.charCodeAt(i)) caseOrder = a.charCodeAt(i) > b.charCodeAt(i) ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return caseOrder;
}
