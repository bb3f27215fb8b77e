// Serves the preferences sample on stdin/stdout: `npm run start:stdio`.
// Diagnostics (including the ephemeral-key warning) go to stderr; stdout carries only MCP.
// SIGTERM / SIGINT close it gracefully: requests in flight are answered first.
import { createPreferencesApp } from "./preferences-app";
import { closeOnSignal } from "../close-on-signal";

const app = createPreferencesApp();
app.serveStdio();
closeOnSignal(app);
