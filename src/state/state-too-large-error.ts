/**
 * Thrown by `StateSealer.seal` when the sealed token would be over `STATE_TOKEN_MAX_BYTES`. In a
 * component (an `@Elicit` round carrying long answers, or a hand-written seal) the client gets
 * -32602 "Request state too large" and the app's logger the sizes; nothing else reaches the wire.
 */
export class StateTooLargeError extends Error {
  override readonly name = "StateTooLargeError";
  constructor(
    /** Bytes the token would have had. */
    readonly size: number,
    /** The most a token may have. */
    readonly limit: number,
  ) {
    super(`StateSealer.seal: the sealed state would be ${size} bytes, over the ${limit}-byte limit; carry less data in requestState`);
  }
}
