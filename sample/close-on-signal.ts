// The samples' shutdown: SIGTERM or SIGINT (and, for a stdio server, the end of stdin) closes the
// app gracefully (new requests get 503, those in flight are answered, running tasks are handed
// over), then exits 0, or 1 after logging a failed close. The handlers run once: a second signal
// ends the process at once.
import type { McpApp } from "roundtrip-mcp";

export function closeOnSignal(app: Pick<McpApp, "close">, options: { readonly stdinEnd?: boolean } = {}): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`close failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  if (options.stdinEnd) process.stdin.once("end", stop);
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
