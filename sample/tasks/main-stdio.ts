// Serves the tasks sample on stdin/stdout. Diagnostics go to stderr; stdout carries only MCP.
// The end of stdin or SIGTERM closes the app, which hands a running report over to the next
// start (the tool's retry policy is "rerun").
import { createReportApp } from "./report-app";

const app = createReportApp();
app.serveStdio();
const stop = (): void => void app.close().then(() => process.exit(0));
process.stdin.once("end", stop);
process.once("SIGTERM", stop);
