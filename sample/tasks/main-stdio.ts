// Serves the tasks sample on stdin/stdout. Diagnostics go to stderr; stdout carries only MCP.
// The end of stdin, SIGTERM or SIGINT closes the app gracefully: requests in flight are answered,
// and a running report is handed over to the next start (the tool's retry policy is "rerun").
import { createReportApp } from "./report-app";
import { closeOnSignal } from "../close-on-signal";

const app = createReportApp();
app.serveStdio();
closeOnSignal(app, { stdinEnd: true });
