/**
 * The param the `Mcp-Name` HTTP header mirrors, by method (SEP-2243; SEP-2663 for `tasks/*`): the
 * table every MCP client writes the header from, here for the kit's HTTP client, which also talks
 * to servers it did not build (a URL). The server reads the same fact from its feature table
 * (`MethodSpec.nameParam`); test/unit/testing/mcp-name-params.test.ts keeps the two equal.
 */
export const MCP_NAME_PARAMS: Readonly<Record<string, string>> = Object.freeze({
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
});
