// Each host's own configuration: where it keeps MCP servers for each scope it offers, and the
// entry it expects for a stdio command or an HTTP URL (docs/cli.md, "install"; docs/hosts.md adds
// them by hand).
import os from "node:os";
import path from "node:path";
import { CliError } from "../cli-error";
import type { EnvValue, ServerSpec } from "./server-spec";

export type Scope = "local" | "project" | "user";

/** Where the server goes: a file, its format, and the path of the servers' object in it. */
export interface ConfigTarget {
  readonly file: string;
  readonly format: "json" | "toml";
  /** Keys from the file's root to the object that maps names to servers. */
  readonly serversPath: readonly string[];
}

export interface HostContext {
  readonly projectRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly platform: NodeJS.Platform;
}

export interface Host {
  readonly id: string;
  readonly title: string;
  readonly scopes: readonly Scope[];
  readonly defaultScope: Scope;
  target(scope: Scope, context: HostContext): ConfigTarget;
  /** The server's entry as this host reads it (plain JSON; TOML is written from it). */
  entry(spec: ServerSpec): Record<string, unknown>;
  /** How to check it by hand. */
  readonly check: string;
}

/** The mcp-remote release Claude Desktop runs to reach an HTTP server (its config file takes stdio servers only). */
export const MCP_REMOTE = "mcp-remote@0.15.1";

/** A stdio entry `{ command, args, env }`; `reference` writes a passed-through variable the host's way. */
function stdioEntry(
  spec: Extract<ServerSpec, { transport: "stdio" }>,
  hostTitle: string,
  reference?: (name: string) => string,
  extra: object = {},
) {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.env)) env[name] = envValue(name, value, hostTitle, reference);
  return { ...extra, command: spec.command, args: [...spec.args], ...(Object.keys(env).length > 0 && { env }) };
}

function envValue(name: string, value: EnvValue, hostTitle: string, reference?: (name: string) => string): string {
  if ("value" in value) return value.value;
  if (reference === undefined) throw new CliError(`${hostTitle} cannot pass its own ${name} through: give the value, --env ${name}=...`);
  return reference(value.fromHost);
}

function appData(context: HostContext): string {
  return context.env.APPDATA ?? path.join(context.home, "AppData", "Roaming");
}

function userConfigDir(context: HostContext): string {
  if (context.platform === "darwin") return path.join(context.home, "Library", "Application Support");
  if (context.platform === "win32") return appData(context);
  return context.env.XDG_CONFIG_HOME || path.join(context.home, ".config");
}

const json = (file: string, serversPath: readonly string[]): ConfigTarget => ({ file, format: "json", serversPath });

/** `<home>/<folder>/<file>` for the user scope, `<app>/<folder>/<file>` for the project, servers under mcpServers. */
const inDotFolder =
  (folder: string, file: string): Host["target"] =>
  (scope, context) =>
    json(path.join(scope === "user" ? context.home : context.projectRoot, folder, file), ["mcpServers"]);

export const HOSTS: readonly Host[] = [
  {
    id: "claude-code",
    title: "Claude Code",
    scopes: ["local", "project", "user"],
    defaultScope: "local",
    target(scope, context) {
      const file = path.join(context.env.CLAUDE_CONFIG_DIR || context.home, ".claude.json");
      if (scope === "project") return json(path.join(context.projectRoot, ".mcp.json"), ["mcpServers"]);
      return json(file, scope === "user" ? ["mcpServers"] : ["projects", context.projectRoot, "mcpServers"]);
    },
    entry: (spec) =>
      spec.transport === "http" ? { type: "http", url: spec.url } : stdioEntry(spec, "Claude Code", (n) => `\${${n}}`, { type: "stdio" }),
    check: "claude mcp list",
  },
  {
    id: "claude-desktop",
    title: "Claude Desktop",
    scopes: ["user"],
    defaultScope: "user",
    target: (_scope, context) => json(path.join(userConfigDir(context), "Claude", "claude_desktop_config.json"), ["mcpServers"]),
    // Its config file takes stdio servers only: an HTTP server is reached through mcp-remote.
    entry: (spec) =>
      spec.transport === "http" ? { command: "npx", args: ["-y", MCP_REMOTE, spec.url] } : stdioEntry(spec, "Claude Desktop"),
    check: "restart Claude Desktop; the server is listed under Settings > Developer",
  },
  {
    id: "codex",
    title: "Codex",
    scopes: ["user", "project"],
    defaultScope: "user",
    target(scope, context) {
      const dir =
        scope === "project" ? path.join(context.projectRoot, ".codex") : context.env.CODEX_HOME || path.join(context.home, ".codex");
      return { file: path.join(dir, "config.toml"), format: "toml", serversPath: ["mcp_servers"] };
    },
    entry(spec) {
      if (spec.transport === "http") return { url: spec.url };
      const passed = Object.entries(spec.env).filter(([, v]) => "fromHost" in v);
      const values = Object.fromEntries(Object.entries(spec.env).flatMap(([k, v]) => ("value" in v ? [[k, v.value]] : [])));
      return {
        command: spec.command,
        args: [...spec.args],
        ...(Object.keys(values).length > 0 && { env: values }),
        ...(passed.length > 0 && { env_vars: passed.map(([name]) => name) }),
      };
    },
    check: "codex mcp list",
  },
  {
    id: "gemini",
    title: "Gemini CLI",
    scopes: ["project", "user"],
    defaultScope: "project",
    target: inDotFolder(".gemini", "settings.json"),
    entry: (spec) => (spec.transport === "http" ? { httpUrl: spec.url } : stdioEntry(spec, "Gemini CLI", (n) => `$${n}`)),
    check: "gemini mcp list (in a trusted folder)",
  },
  {
    id: "cursor",
    title: "Cursor",
    scopes: ["user", "project"],
    defaultScope: "user",
    target: inDotFolder(".cursor", "mcp.json"),
    entry: (spec) => (spec.transport === "http" ? { url: spec.url } : stdioEntry(spec, "Cursor", (n) => `\${env:${n}}`)),
    check: "Cursor Settings > MCP lists it",
  },
  {
    id: "vscode",
    title: "VS Code",
    scopes: ["project", "user"],
    defaultScope: "project",
    target(scope, context) {
      if (scope === "project") return json(path.join(context.projectRoot, ".vscode", "mcp.json"), ["servers"]);
      return json(path.join(userConfigDir(context), "Code", "User", "mcp.json"), ["servers"]);
    },
    entry: (spec) =>
      spec.transport === "http" ? { type: "http", url: spec.url } : stdioEntry(spec, "VS Code", (n) => `\${env:${n}}`, { type: "stdio" }),
    check: "the MCP: List Servers command lists it",
  },
];

/** `gemini-cli` is taken for `gemini`, `claude` for `claude-code`, `code` for `vscode`. */
const ALIASES: Readonly<Record<string, string>> = { "gemini-cli": "gemini", claude: "claude-code", code: "vscode" };

export function hostNamed(name: string): Host {
  const host = HOSTS.find((h) => h.id === (ALIASES[name] ?? name));
  if (host === undefined) throw new CliError(`unknown host ${JSON.stringify(name)}: one of ${HOSTS.map((h) => h.id).join(", ")}`);
  return host;
}

export function defaultHostContext(projectRoot: string, env: NodeJS.ProcessEnv): HostContext {
  return { projectRoot, env, home: env.HOME || os.homedir(), platform: process.platform };
}
