const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * How `tamper` changes a state string:
 * - "flip" (default): one character near the middle becomes another of the base64url alphabet,
 *   so the token keeps its length and shape and only its integrity check can catch it;
 * - "append": `-TAMPERED` is appended (what the conformance suite sends);
 * - "truncate": the last character is dropped.
 */
export type TamperMode = "flip" | "append" | "truncate";

/**
 * A modified copy of an opaque `requestState`, for tests that the server refuses it. Works on any
 * string; it never parses the token.
 *
 * @example const forged = await round1.withState(tamper(round1.requestState!)).answer({ color: accept({ color: "red" }) });
 */
export function tamper(state: string, mode: TamperMode = "flip"): string {
  if (typeof state !== "string" || state.length === 0) throw new TypeError("tamper: expected a non-empty state string");
  switch (mode) {
    case "append":
      return `${state}-TAMPERED`;
    case "truncate":
      return state.slice(0, -1);
    case "flip": {
      const middle = Math.floor(state.length / 2);
      for (let step = 0; step < state.length; step++) {
        const at = (middle + step) % state.length;
        const index = ALPHABET.indexOf(state.charAt(at));
        if (index < 0) continue;
        const replacement = ALPHABET.charAt((index + 1) % ALPHABET.length);
        return state.slice(0, at) + replacement + state.slice(at + 1);
      }
      return `${state}-TAMPERED`;
    }
    default:
      throw new TypeError(`tamper: unknown mode ${JSON.stringify(mode)}; expected "flip", "append" or "truncate"`);
  }
}
