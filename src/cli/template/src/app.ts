// The bootstrap: McpApp.create reads every decorator once, builds the schemas and validators, and
// fails here, naming the class, the method and the fix, on a declaration it cannot serve.
import "reflect-metadata";
import { readFileSync } from "node:fs";
import path from "node:path";
import { container } from "tsyringe";
import { McpApp, type McpAppOptions } from "roundtrip-mcp";
import { TicketDesk } from "./ticket-desk";
import { TicketStore } from "./ticket-store";
import { EXTENSION_COMPONENTS, EXTENSIONS } from "./extensions";

/** The server's name and version are the package's (src/ and dist/ both sit beside package.json). */
const PACKAGE = JSON.parse(readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as { name: string; version: string };

export function createApp(overrides: Partial<McpAppOptions> = {}): McpApp {
  const appContainer = container.createChildContainer();
  // One store for the app, shared by every component that injects it.
  appContainer.registerSingleton(TicketStore);
  return McpApp.create({
    name: PACKAGE.name,
    version: PACKAGE.version,
    components: [TicketDesk, ...EXTENSION_COMPONENTS],
    features: EXTENSIONS,
    container: appContainer,
    // The key that seals the answers carried between rounds: STATE_KEYS (`id:base64secret`,
    // comma-separated, the first seals; `roundtrip-mcp dev` sets one that lasts across restarts),
    // or else a random key that dies with this process (one instance only).
    state: process.env.STATE_KEYS?.trim() ? { keysFromEnv: "STATE_KEYS" } : { ephemeral: true },
    // What `roundtrip-mcp server-json` tells hosts the server reads, whether or not it is set here.
    environment: [{ name: "STATE_KEYS", description: "The key ring sealing requestState (unset: a key of this process)", isSecret: true }],
    // `tickets` grants both scopes (they matter behind OAuth only).
    scopeHierarchy: { tickets: ["tickets:read", "tickets:write"] },
    ...overrides,
  });
}
