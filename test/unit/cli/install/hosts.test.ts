// Pins each host's file per scope and the entry it gets: stdio (command, args, env, with a passed
// through variable in the host's own syntax) and HTTP (the host's own key); Claude Desktop reaches
// HTTP through mcp-remote and has no pass-through; unknown hosts and aliases.
import path from "node:path";
import { hostNamed, HOSTS, MCP_REMOTE, type HostContext } from "../../../../src/cli/install/hosts";
import type { ServerSpec } from "../../../../src/cli/install/server-spec";

const context: HostContext = { projectRoot: "/work/app", env: {}, home: "/home/ada", platform: "linux" };
const stdio: ServerSpec = {
  transport: "stdio",
  command: "/usr/bin/node",
  args: ["/work/app/dist/main.js", "--stdio"],
  env: { STATE_KEYS: { value: "k" }, TOKEN: { fromHost: "TOKEN" } },
};
const http: ServerSpec = { transport: "http", url: "http://127.0.0.1:3000/mcp" };

describe("hosts", () => {
  it("keeps each host's servers where the host reads them", () => {
    const where = (id: string, scope: "local" | "project" | "user", ctx = context) => {
      const t = hostNamed(id).target(scope, ctx);
      return [t.file, t.serversPath.join(" > ")];
    };
    expect(where("claude-code", "local")).toEqual(["/home/ada/.claude.json", "projects > /work/app > mcpServers"]);
    expect(where("claude-code", "user")).toEqual(["/home/ada/.claude.json", "mcpServers"]);
    expect(where("claude-code", "project")).toEqual(["/work/app/.mcp.json", "mcpServers"]);
    expect(where("claude-code", "user", { ...context, env: { CLAUDE_CONFIG_DIR: "/cfg" } })).toEqual(["/cfg/.claude.json", "mcpServers"]);
    expect(where("claude-desktop", "user")).toEqual(["/home/ada/.config/Claude/claude_desktop_config.json", "mcpServers"]);
    expect(where("claude-desktop", "user", { ...context, platform: "darwin" })[0]).toBe(
      "/home/ada/Library/Application Support/Claude/claude_desktop_config.json",
    );
    expect(where("codex", "user")).toEqual(["/home/ada/.codex/config.toml", "mcp_servers"]);
    expect(where("codex", "user", { ...context, env: { CODEX_HOME: "/ch" } })[0]).toBe("/ch/config.toml");
    expect(where("codex", "project")[0]).toBe("/work/app/.codex/config.toml");
    expect(where("gemini", "project")).toEqual(["/work/app/.gemini/settings.json", "mcpServers"]);
    expect(where("gemini", "user")[0]).toBe("/home/ada/.gemini/settings.json");
    expect(where("cursor", "user")).toEqual(["/home/ada/.cursor/mcp.json", "mcpServers"]);
    expect(where("vscode", "project")).toEqual(["/work/app/.vscode/mcp.json", "servers"]);
    expect(where("vscode", "user")[0]).toBe(path.join("/home/ada/.config", "Code", "User", "mcp.json"));
    expect(HOSTS.map((h) => [h.id, h.defaultScope])).toEqual([
      ["claude-code", "local"],
      ["claude-desktop", "user"],
      ["codex", "user"],
      ["gemini", "project"],
      ["cursor", "user"],
      ["vscode", "project"],
    ]);
  });

  it("writes a stdio server as each host expects, passing a variable through in its syntax", () => {
    const args = stdio.transport === "stdio" ? [...stdio.args] : [];
    const base = { command: "/usr/bin/node", args };
    expect(hostNamed("claude-code").entry(stdio)).toEqual({ type: "stdio", ...base, env: { STATE_KEYS: "k", TOKEN: "${TOKEN}" } });
    expect(hostNamed("gemini").entry(stdio)).toEqual({ ...base, env: { STATE_KEYS: "k", TOKEN: "$TOKEN" } });
    expect(hostNamed("cursor").entry(stdio)).toEqual({ ...base, env: { STATE_KEYS: "k", TOKEN: "${env:TOKEN}" } });
    expect(hostNamed("vscode").entry(stdio)).toEqual({ type: "stdio", ...base, env: { STATE_KEYS: "k", TOKEN: "${env:TOKEN}" } });
    expect(hostNamed("codex").entry(stdio)).toEqual({ ...base, env: { STATE_KEYS: "k" }, env_vars: ["TOKEN"] });
    expect(() => hostNamed("claude-desktop").entry(stdio)).toThrow(
      "Claude Desktop cannot pass its own TOKEN through: give the value, --env TOKEN=...",
    );
  });

  it("writes an HTTP server with each host's own key", () => {
    const url = "http://127.0.0.1:3000/mcp";
    expect(hostNamed("claude-code").entry(http)).toEqual({ type: "http", url });
    expect(hostNamed("codex").entry(http)).toEqual({ url });
    expect(hostNamed("gemini").entry(http)).toEqual({ httpUrl: url });
    expect(hostNamed("cursor").entry(http)).toEqual({ url });
    expect(hostNamed("vscode").entry(http)).toEqual({ type: "http", url });
    expect(hostNamed("claude-desktop").entry(http)).toEqual({ command: "npx", args: ["-y", MCP_REMOTE, url] });
  });

  it("knows the hosts by name and alias, and names them all for an unknown one", () => {
    expect(hostNamed("gemini-cli").id).toBe("gemini");
    expect(hostNamed("claude").id).toBe("claude-code");
    expect(() => hostNamed("emacs")).toThrow('unknown host "emacs": one of claude-code, claude-desktop, codex, gemini, cursor, vscode');
  });
});
