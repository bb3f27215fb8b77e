// Serves the app. `node dist/main.js --stdio` serves stdin/stdout: that is how a host (Claude Code,
// Codex, Cursor, ...) starts it. `--http`, or no flag, serves Streamable HTTP on 127.0.0.1 at PORT
// (default 3000; 0 takes a free one) and prints the URL.
import "reflect-metadata";
import type { McpApp } from "roundtrip-mcp";
import { createApp } from "./app";
import { httpAuth } from "./http-auth";

async function main(): Promise<void> {
  const app = createApp();
  if (process.argv.includes("--stdio")) {
    // stdout carries MCP messages only; diagnostics go to stderr.
    app.serveStdio();
    closeOnSignal(app, true);
    return;
  }
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${process.env.PORT}`);
  const listener = await app.listen({ port, auth: httpAuth(port) });
  console.log(`listening on ${listener.url}`);
  closeOnSignal(app, false);
}

/** SIGTERM, SIGINT (and on stdio the end of stdin) close the app: requests in flight are answered first. */
function closeOnSignal(app: McpApp, stdinEnd: boolean): void {
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
  if (stdinEnd) process.stdin.once("end", close);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
