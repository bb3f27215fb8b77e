/**
 * A failure the user can act on: printed as `roundtrip-mcp <command>: <message>` without a stack,
 * and the command exits 1. The message names what was wrong and the fix.
 */
export class CliError extends Error {
  override readonly name = "CliError";
}
