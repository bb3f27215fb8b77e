/**
 * The param the `Mcp-Name` HTTP header mirrors, by method (SEP-2243; SEP-2663 for `tasks/*`), as
 * the official SDK 2.4.0 reads it (its internal `MCP_NAME_HEADER_SOURCE`): the fast lane checks the
 * header against it, and the testing kit writes the header from it.
 */
export const MCP_NAME_PARAMS: Readonly<Record<string, string>> = Object.freeze({
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
});
