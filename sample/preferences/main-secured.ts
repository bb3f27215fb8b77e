// Serves the preferences sample behind OAuth 2.1 over Streamable HTTP: `npm run start:secured`.
// OAUTH_ISSUER (required) is the authorization server trusted for JWT access tokens; PORT the
// port (default 3000; 0 takes a free one); OAUTH_RESOURCE the canonical URI tokens must name
// (default http://localhost:<PORT>/mcp; with PORT=0 the listener's own URL, http://127.0.0.1:<port>/mcp). The first stdout line is that canonical URL: a client
// must connect to exactly it (RFC 9728 section 3.3 makes it reject metadata for another spelling).
// Scopes: preferences:read (choose_preferences, preview_theme, the summary template, the prompt),
// preferences:admin (reset_preferences), and preferences, which implies both.
import { jwtVerifier } from "roundtrip-mcp";
import { createPreferencesApp } from "./preferences-app";
import { closeOnSignal } from "../close-on-signal";

async function main(): Promise<void> {
  const port = Number(process.env.PORT || 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  const issuer = process.env.OAUTH_ISSUER;
  if (!issuer) throw new TypeError("OAUTH_ISSUER must name the authorization server's issuer, e.g. https://auth.example.com/realms/mcp");
  const app = createPreferencesApp();
  const listener = await app.listen({
    host: "127.0.0.1",
    port,
    path: "/mcp",
    // Port 0: the resource names the port actually taken, so it is known only after listening.
    auth: {
      verifier: jwtVerifier({ issuer }),
      resource: process.env.OAUTH_RESOURCE || (port === 0 ? undefined : `http://localhost:${port}/mcp`),
    },
  });
  const resource = process.env.OAUTH_RESOURCE || (port === 0 ? listener.url : `http://localhost:${port}/mcp`);
  console.log(`secured preferences sample listening on ${resource}`);
  closeOnSignal(app);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
