/**
 * An error whose message is meant for the model. Thrown from a tool, it becomes an `isError`
 * result with exactly this message, as `Result.error(message)` would; any other exception a tool
 * throws becomes a generic `isError` text with an error id, and its details go to the app's
 * logger only. Thrown from a resource or a prompt, it is an unexpected error like any other.
 *
 * @example throw new ToolError(`No flight ${code} on ${date}; check the flight number`);
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
}

/** True for a `ToolError`, including one from another copy of this package. */
export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError || (value instanceof Error && value.name === "ToolError");
}
