// Serves the preferences sample on stdin/stdout: `npm run start:stdio`.
// Diagnostics (including the ephemeral-key warning) go to stderr; stdout carries only MCP.
import { createPreferencesApp } from "./preferences-app";

createPreferencesApp().serveStdio();
