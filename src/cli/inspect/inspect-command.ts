// `roundtrip-mcp inspect [entry]`: loads the app without serving it and prints what a client
// will see, with what only the declarations say; `--json` for scripts.
import type { CliIo } from "../cli-io";
import { appReport } from "./app-report";
import { withEntryApp, type EntryOptions } from "./entry-app";
import { reportText } from "./report-text";

export interface InspectOptions extends EntryOptions {
  readonly json?: boolean;
}

/** Exit code 1 when the app cannot be loaded or built. */
export async function inspectCommand(
  entryArg: string | undefined,
  options: InspectOptions,
  io: CliIo,
  argv: readonly string[] = [],
): Promise<number> {
  return withEntryApp(entryArg, options, io, argv, async (app) => {
    const report = await appReport(app);
    io.out(options.json ? JSON.stringify(report, null, 2) : reportText(report));
  });
}
