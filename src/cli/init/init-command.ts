// `roundtrip-mcp init [dir]`: writes a new app that passes its own tests. On a terminal it asks
// what it was not told; otherwise it takes the flags and the defaults.
import path from "node:path";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { packageSource } from "./package-source";
import { checkTarget, writeApp } from "./write-app";
import type { InitChoices } from "./template-files";

export interface InitOptions {
  readonly transport?: string;
  readonly tasks?: boolean;
  readonly oauth?: boolean;
  readonly name?: string;
  readonly force?: boolean;
  readonly from?: string;
  readonly yes?: boolean;
}

const DEFAULT_DIR = "my-mcp-app";

export async function initCommand(dirArg: string | undefined, options: InitOptions, io: CliIo): Promise<void> {
  const ask = io.interactive && options.yes !== true;
  const dirName = dirArg ?? (ask ? await io.prompts.input("Folder for the new app", DEFAULT_DIR) : ".");
  const dir = path.resolve(io.cwd, dirName);
  checkTarget(dir, options.force === true);
  const name = options.name ?? packageName(path.basename(dir));
  const choices = await choose(options, ask, io);
  const source = packageSource(options.from, io.cwd);
  const files = writeApp({ dir, name, source, ...choices });
  const relative = path.relative(io.cwd, dir) || ".";
  io.out(
    [
      `Wrote ${name} in ${dir} (${files.length} files): ${describeChoices(choices)}.`,
      "",
      "Next:",
      ...(relative === "." ? [] : [`  cd ${relative.includes(" ") ? JSON.stringify(relative) : relative}`]),
      "  npm install",
      "  npm test          # the app's own end-to-end tests",
      "  npm run dev       # serves src/ over HTTP, restarts on every change, prints the Inspector commands",
      "  npx roundtrip-mcp install claude-code   # or codex, gemini, cursor, vscode, claude-desktop (after npm run build)",
    ].join("\n"),
  );
}

async function choose(options: InitOptions, ask: boolean, io: CliIo): Promise<InitChoices> {
  let transport = options.transport;
  if (transport !== undefined && transport !== "stdio" && transport !== "http")
    throw new CliError(`--transport must be stdio or http, got ${JSON.stringify(transport)}`);
  if (transport === undefined && ask)
    transport = await io.prompts.select("Which transport does `npm start` serve first?", [
      { value: "http", name: "Streamable HTTP on 127.0.0.1 (remote clients, the Inspector, several instances)" },
      { value: "stdio", name: "stdio (a host such as Claude Code or Codex starts the server)" },
    ]);
  const tasks =
    options.tasks ?? (ask ? await io.prompts.confirm("Add the tasks extension (a tool that may run as a task)?", false) : false);
  const oauth = options.oauth ?? (ask ? await io.prompts.confirm("Authenticate HTTP callers with OAuth 2.1?", false) : false);
  return { transport: transport === "stdio" ? "stdio" : "http", tasks, oauth };
}

function describeChoices(choices: InitChoices): string {
  const extras = [choices.tasks && "the tasks extension", choices.oauth && "OAuth 2.1 on HTTP"].filter(Boolean);
  return `npm start serves ${choices.transport === "http" ? "Streamable HTTP" : "stdio"}${extras.length > 0 ? `, with ${extras.join(" and ")}` : ""}`;
}

/** A folder name as an npm package name: lower case, URL-safe characters, no leading dot or underscore. */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+/, "")
    .replace(/-+$/, "")
    .slice(0, 214);
  if (name === "") throw new CliError(`cannot make an npm package name of the folder name ${JSON.stringify(folder)}: pass --name <name>`);
  return name;
}
