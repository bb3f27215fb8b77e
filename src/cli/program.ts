// The `roundtrip-mcp` command line: one commander program, a subcommand per job, each with
// --help. A CliError is printed as one line naming the fix (exit 1); a usage error is commander's
// own message (exit 1); anything else is a bug and keeps its stack.
import { Command, CommanderError, Option } from "commander";
import { CliError } from "./cli-error";
import { processIo, type CliIo } from "./cli-io";
import { devCommand } from "./dev/dev-command";
import { initCommand } from "./init/init-command";
import { inspectCommand } from "./inspect/inspect-command";
import { HOSTS } from "./install/hosts";
import { installCommand } from "./install/install-command";
import { serverJsonCommand } from "./server-json/server-json-command";
import { ownPackage } from "./package-root";

/** The help of the entry argument and --export option of inspect and server-json, which load the app alike. */
const APP_ENTRY_HELP = "the module that exports the app or createApp() (default: src/app.ts, else src/main.ts)";
const APP_EXPORT_HELP = "the export that is the McpApp or makes it (default: createApp, app, default)";

export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let command = "";
  const program = new Command("roundtrip-mcp")
    .description("Scaffold, run, inspect and install MCP servers written with roundtrip-mcp, and write their server.json")
    .version(ownPackage().version)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text.trimEnd()), writeErr: (text) => io.err(text.trimEnd()) })
    .showHelpAfterError("(add --help for the options)")
    .hook("preAction", (_program, action) => {
      command = action.name();
    });

  program
    .command("init")
    .argument("[dir]", "folder for the new app (created; must be empty)")
    .description("write a new app that follows the guides and passes its own tests")
    .addOption(new Option("--transport <transport>", "what `npm start` serves first").choices(["http", "stdio"]))
    .option("--tasks", "add the tasks extension and a tool that may run as a task")
    .option("--no-tasks", "leave the tasks extension out (the default)")
    .option("--oauth", "authenticate HTTP callers as an OAuth 2.1 resource server")
    .option("--no-oauth", "leave OAuth out (the default)")
    .option("--name <name>", "the package name (default: the folder's name)")
    .option(
      "--from <spec>",
      "how the app depends on roundtrip-mcp: a tarball, a checkout, a version or a git URL (default: the way this command was obtained)",
    )
    .option("--force", "write into a folder that is not empty")
    .option("-y, --yes", "take the defaults instead of asking")
    .action((dir: string | undefined, options) => initCommand(dir, options, io));

  program
    .command("dev")
    .argument("[entry]", "the TypeScript file that serves the app (default: src/main.ts)")
    .argument("[args...]", "arguments for the app, after --")
    .description("serve the app from its TypeScript sources over HTTP, restarting on every change")
    .option("--port <port>", "the port the app serves (sets PORT; default: $PORT or 3000)")
    .action((entry: string | undefined, args: string[], options) => devCommand(entry, options, args, io));

  let code = 0;
  program
    .command("inspect")
    .argument("[entry]", APP_ENTRY_HELP)
    .description("load the app without serving it and print what a client will see")
    .option("--json", "print the report as JSON")
    .option("--export <name>", APP_EXPORT_HELP)
    .action(async (entry: string | undefined, options) => {
      code = await inspectCommand(entry, options, io, argv);
    });

  program
    .command("server-json")
    .argument("[entry]", APP_ENTRY_HELP)
    .description("write the app's server.json for the MCP Registry, from the app and its package.json")
    .option("--out <file>", "write it to this file (default: print it)")
    .option("--remote <url>", "a public Streamable HTTP URL the server is deployed at (repeat for each)", collect)
    .option("--oauth", "the remotes require an OAuth bearer token (an Authorization header)")
    .option("--package-url <url>", "the npm package serves Streamable HTTP at this local URL when run (default: stdio)")
    .option("--no-package", "publish the remotes only, no npm package")
    .option("--export <name>", APP_EXPORT_HELP)
    .action(async (entry: string | undefined, options) => {
      code = await serverJsonCommand(entry, options, io, argv);
    });

  program
    .command("install")
    .argument("<host>", `the host: ${HOSTS.map((h) => h.id).join(", ")}`)
    .argument("[entry]", "the built JavaScript the host runs (default: package.json main, dist/main.js), or a .ts file of the build")
    .argument("[args...]", "the app's arguments, after -- (default: --stdio)")
    .description("add the server to a host's own configuration, leaving its other servers as they are")
    .option("--scope <scope>", "where the host keeps it: local, project or user (each host offers some; default: the host's own default)")
    .option("--name <name>", "the server's name in the host (default: the package name)")
    .option("--url <url>", "register the Streamable HTTP server running at this URL instead of a stdio command")
    .option("--env <entry...>", "an environment variable for the stdio server: NAME=value, or NAME to pass the host's own through")
    .option("--dry-run", "print what would be written, and write nothing")
    .action((host: string, entry: string | undefined, args: string[], options) => installCommand(host, entry, args, options, io));

  for (const sub of program.commands) sub.exitOverride().configureOutput(program.configureOutput());

  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : error.exitCode || 1;
    if (error instanceof CliError) {
      io.err(`roundtrip-mcp${command ? ` ${command}` : ""}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** A repeatable option's values, in order. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
