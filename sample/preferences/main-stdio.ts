// Serves the preferences sample on stdin/stdout: `npm run start:stdio`.
// Diagnostics (including the ephemeral-key warning) go to stderr; stdout carries only MCP.
// SIGTERM / SIGINT close it gracefully: requests in flight are answered first.
import { createPreferencesApp } from "./preferences-app";

const app = createPreferencesApp();
app.serveStdio();
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
