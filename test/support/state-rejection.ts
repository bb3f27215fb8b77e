// Asserts that opening a sealed state fails the one way the wire may see: McpError -32602
// "Invalid or expired request state" with no data. Returns the error for further checks.
import { McpError } from "../../src/protocol/errors";

export function rejectionOf(open: () => unknown): McpError {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    const failure = error as McpError;
    expect(failure.code).toBe(-32602);
    expect(failure.message).toBe("Invalid or expired request state");
    expect(failure.data).toBeUndefined();
    return failure;
  }
  throw new Error("expected open to reject the token");
}
