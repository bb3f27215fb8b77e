// Serves the tasks sample on stdin/stdout. Diagnostics go to stderr; stdout carries only MCP.
// The end of stdin, SIGTERM or SIGINT closes the app gracefully: requests in flight are answered,
// and a running report is handed over to the next start (the tool's retry policy is "rerun").
import { createReportApp } from "./report-app";

const app = createReportApp();
app.serveStdio();
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
process.stdin.once("end", stop);
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
