// `roundtrip-mcp install <host> [entry]`: adds the app to a host's own configuration (stdio with
// absolute paths by default, `--url` for a running HTTP server), replacing only its own entry, and
// changing nothing when the entry is already there; `--dry-run` prints what it would write.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as stringifyToml } from "smol-toml";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { findProject } from "../project/app-project";
import { setServer } from "./config-edit";
import { defaultHostContext, hostNamed, type Host, type Scope } from "./hosts";
import { serverSpec, type ServerSpec } from "./server-spec";

export interface InstallOptions {
  readonly scope?: string;
  readonly name?: string;
  readonly url?: string;
  readonly env?: readonly string[];
  readonly dryRun?: boolean;
}

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export async function installCommand(
  hostName: string,
  entryArg: string | undefined,
  appArgs: readonly string[],
  options: InstallOptions,
  io: CliIo,
): Promise<void> {
  const host = hostNamed(hostName);
  const scope = (options.scope ?? host.defaultScope) as Scope;
  if (!host.scopes.includes(scope))
    throw new CliError(`${host.title} has no ${JSON.stringify(options.scope)} scope: use ${host.scopes.join(" or ")}`);
  const project = findProject(io.cwd);
  const name = options.name ?? (project.packageJson.name ?? path.basename(project.root)).replace(/^@[^/]+\//, "");
  if (!SERVER_NAME.test(name))
    throw new CliError(`${JSON.stringify(name)} cannot name a server (letters, digits, -, _ and .): pass --name <name>`);
  const spec = serverSpec(project, io.cwd, entryArg, appArgs, options);
  const target = host.target(scope, defaultHostContext(project.root, io.env));
  const existing = existsSync(target.file) ? readFileSync(target.file, "utf8") : undefined;
  const entry = host.entry(spec);
  const edit = setServer(target, existing, name, entry);
  const where = `${host.title}, ${scope} scope: ${target.file}${target.serversPath.length > 1 ? ` (${target.serversPath.slice(0, -1).join(" > ")})` : ""}`;
  const shown =
    target.format === "toml"
      ? stringifyToml({ [target.serversPath.at(-1)!]: { [name]: entry } }).trim()
      : JSON.stringify({ [name]: entry }, null, 2);
  if (options.dryRun) {
    const verb = { added: "add", replaced: "replace", unchanged: "leave unchanged" }[edit.outcome];
    io.out(`Would ${verb} ${name} in ${where}:\n${shown}\n(--dry-run: nothing written)`);
    return;
  }
  if (edit.outcome === "unchanged") {
    io.out(`${name} is already installed in ${where}; nothing changed.`);
    return;
  }
  writeAtomically(target.file, edit.text, spec);
  io.out(
    [
      `${edit.outcome === "added" ? "Added" : "Replaced"} ${name} in ${where}:`,
      shown,
      ...notes(host, scope, spec),
      `Check: ${host.check}`,
    ].join("\n"),
  );
}

/** Written beside, then renamed over: a host reading the file never sees half of it. */
function writeAtomically(file: string, text: string, spec: ServerSpec): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const mode = existsSync(file)
    ? statSync(file).mode & 0o777
    : spec.transport === "stdio" && Object.values(spec.env).some((v) => "value" in v)
      ? 0o600
      : 0o644;
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, file);
}

function notes(host: Host, scope: Scope, spec: ServerSpec): string[] {
  const lines: string[] = [];
  if (spec.transport === "stdio")
    lines.push(`The host starts: ${[spec.command, ...spec.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}`);
  if (host.id === "claude-code" && scope === "project")
    lines.push("Claude Code asks you to approve the servers of .mcp.json when it next starts in this folder.");
  if (host.id === "gemini")
    lines.push("Gemini CLI starts MCP servers only in folders you trust: run gemini here once and trust the folder.");
  if (host.id === "claude-desktop" && spec.transport === "http")
    lines.push("Claude Desktop reaches the HTTP server through mcp-remote (its config file takes stdio servers only).");
  return lines;
}
