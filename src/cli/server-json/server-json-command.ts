// `roundtrip-mcp server-json [entry]`: the app's server.json for the MCP Registry (serverJson()),
// from the app loaded as inspect loads it and the app's package.json; printed, or written with
// --out. A refusal names the field and the fix (a missing mcpName, description, version, ...).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { serverJson, type JsonObject, type ServerJsonOptions, type ServerJsonRemote } from "roundtrip-mcp";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { withEntryApp, type EntryOptions } from "../inspect/entry-app";

export interface ServerJsonCommandOptions extends EntryOptions {
  /** Where to write it; stdout when absent. */
  readonly out?: string;
  /** The public Streamable HTTP URLs the server is deployed at (`--remote`, repeatable). */
  readonly remote?: readonly string[];
  /** The remotes require an OAuth bearer token. */
  readonly oauth?: boolean;
  /** The package serves Streamable HTTP at this local URL when run, instead of stdio. */
  readonly packageUrl?: string;
  /** False (`--no-package`): published as remotes only. */
  readonly package?: boolean;
}

/** Exit code 1 when the app cannot be loaded or built; a CliError when no server.json can be written. */
export async function serverJsonCommand(
  entryArg: string | undefined,
  options: ServerJsonCommandOptions,
  io: CliIo,
  argv: readonly string[] = [],
): Promise<number> {
  const generation = generationOptions(options);
  return withEntryApp(entryArg, options, io, argv, (app, project) => {
    const packageFile = path.join(project.root, "package.json");
    let document: JsonObject;
    try {
      document = serverJson(app, project.packageJson, generation);
    } catch (error) {
      if ((error as Error).name !== "ServerJsonError") throw error;
      // "package.json has no mcpName ..." names the file read: the app's, wherever the command runs.
      throw new CliError((error as Error).message.replace(/^package\.json/, path.relative(io.cwd, packageFile)));
    }
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (options.out === undefined) return void io.out(text.trimEnd());
    const file = path.resolve(io.cwd, options.out);
    try {
      writeFileSync(file, text);
    } catch (error) {
      throw new CliError(
        `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}): check the folder exists and is writable`,
      );
    }
    io.out(`Wrote ${path.relative(io.cwd, file) || file}: ${summary(document)}`);
  });
}

/** What the registry's schema takes as a transport's URL. */
const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The flags as `serverJson`'s options, checked before the app is loaded. */
function generationOptions(options: ServerJsonCommandOptions): ServerJsonOptions {
  const remotes = options.remote ?? [];
  for (const [flag, url] of [...remotes.map((r) => ["--remote", r]), ["--package-url", options.packageUrl]])
    if (url !== undefined && !HTTP_URL.test(url))
      throw new CliError(`${flag} ${url} is not an http(s) URL: give the server's Streamable HTTP URL, e.g. https://mcp.example.com/mcp`);
  if (options.oauth === true && remotes.length === 0)
    throw new CliError("--oauth says the remotes require a bearer token: give the deployed URL with --remote <url>");
  if (options.package === false && options.packageUrl !== undefined)
    throw new CliError("--package-url describes the npm package, which --no-package leaves out: give one of them");
  if (options.package === false && remotes.length === 0)
    throw new CliError("--no-package publishes remotes only: give the deployed URL with --remote <url>");
  return {
    package: options.package === false ? false : options.packageUrl !== undefined ? { url: options.packageUrl } : "stdio",
    remotes: remotes.map((url): ServerJsonRemote => ({ url, oauth: options.oauth === true })),
  };
}

/** "io.github.acme/desk 1.2.0: npm @acme/desk (stdio), 1 remote". */
function summary(document: JsonObject): string {
  const packages = (document.packages ?? []) as { identifier: string; transport: { type: string } }[];
  const remotes = (document.remotes ?? []) as unknown[];
  const parts = [
    ...packages.map((p) => `npm ${p.identifier} (${p.transport.type})`),
    ...(remotes.length > 0 ? [`${remotes.length} remote${remotes.length === 1 ? "" : "s"}`] : []),
  ];
  return `${String(document.name)} ${String(document.version)}: ${parts.join(", ")}`;
}
