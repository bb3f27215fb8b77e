import type { McpApp } from "./mcp-app";

/**
 * How many requests `app`'s fast lane took, and how many of those it left to the SDK path to
 * encode: diagnostics for the differential run. Not exported by the package, so not a member of
 * the public `McpApp` type.
 */
export function fastLaneCountsOf(app: McpApp): { readonly taken: number; readonly settled: number } {
  // Element access reaches the private field; nothing outside src/server/ and the tests should call this.
  return { ...app["lane"].counts };
}
