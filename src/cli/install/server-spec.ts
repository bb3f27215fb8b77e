// What `install` registers: a stdio command (absolute node, the absolute built entry and its
// arguments, environment variables) or the URL of a Streamable HTTP server.
import { existsSync } from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";
import { appTypeScript, entryBuild, type AppProject } from "../project/app-project";

/** An environment variable for the server: a value, or the host's own variable passed through. */
export type EnvValue = { readonly value: string } | { readonly fromHost: string };

export type ServerSpec =
  | {
      readonly transport: "stdio";
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, EnvValue>>;
    }
  | { readonly transport: "http"; readonly url: string };

export interface SpecOptions {
  readonly url?: string;
  readonly env?: readonly string[];
}

export function serverSpec(
  project: AppProject,
  cwd: string,
  entryArg: string | undefined,
  appArgs: readonly string[],
  options: SpecOptions,
): ServerSpec {
  if (options.url !== undefined) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new CliError(`--url must be an absolute http(s) URL, e.g. http://127.0.0.1:3000/mcp; got ${JSON.stringify(options.url)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError(`--url must be http or https, got ${url.protocol}`);
    if (entryArg !== undefined || (options.env ?? []).length > 0)
      throw new CliError("--url registers a running server: give no entry and no --env");
    return { transport: "http", url: url.href };
  }
  return {
    transport: "stdio",
    command: process.execPath,
    args: [builtEntry(project, cwd, entryArg), ...(appArgs.length > 0 ? appArgs : ["--stdio"])],
    env: parseEnv(options.env ?? []),
  };
}

/** The JavaScript the host runs: the entry given (a .ts file maps to its build output), else package.json "main". */
function builtEntry(project: AppProject, cwd: string, entryArg: string | undefined): string {
  let entry = path.resolve(cwd, entryArg ?? project.packageJson.main ?? "dist/main.js");
  if (/\.(c|m)?tsx?$/.test(entry)) {
    if (!existsSync(entry)) throw new CliError(`${entryArg} does not exist`);
    entry = entryBuild(appTypeScript(project), project, entry).output;
  }
  if (!existsSync(entry))
    throw new CliError(
      `${path.relative(cwd, entry)} does not exist: run npm run build first (the host starts the built server, without compiling)`,
    );
  return entry;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function parseEnv(entries: readonly string[]): Record<string, EnvValue> {
  const env: Record<string, EnvValue> = {};
  for (const entry of entries) {
    const at = entry.indexOf("=");
    const name = at < 0 ? entry : entry.slice(0, at);
    if (!ENV_NAME.test(name))
      throw new CliError(`--env ${JSON.stringify(entry)}: give NAME=value, or NAME alone to pass the host's own variable through`);
    env[name] = at < 0 ? { fromHost: name } : { value: entry.slice(at + 1) };
  }
  return env;
}
