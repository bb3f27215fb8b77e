/** Thrown when a final result breaks what its component declared: a server bug, never the client's. */
export class OutputSchemaViolation extends Error {
  override readonly name = "OutputSchemaViolation";
}
