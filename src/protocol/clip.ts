/** The most an error message echoes of one piece of client input (a name, a uri, a key). */
export const ECHO_MAX_CHARS = 64;

/**
 * At most `max` characters of `text`, cut with an ellipsis: how error messages echo client input,
 * so that a message never grows with the request.
 *
 * @example clip("x".repeat(1000)) // 63 x's and "…"
 */
export function clip(text: string, max: number = ECHO_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
