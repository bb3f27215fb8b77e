// The MCP Inspector's commands for a server at `url`, one per protocol era: the Inspector speaks
// 2025-11-25 ("legacy") unless told `--protocol-era modern` (2026-07-28). It needs Node 22.19+.

/** The Inspector release these commands were written against. */
export const INSPECTOR_VERSION = "2.12.0";

export function inspectorCommands(url: string): { era: string; command: string }[] {
  const base = `npx @modelcontextprotocol/inspector@${INSPECTOR_VERSION} --transport http --server-url ${url}`;
  return [
    { era: "2026-07-28", command: `${base} --protocol-era modern` },
    { era: "2025-11-25", command: `${base} --protocol-era legacy` },
  ];
}
