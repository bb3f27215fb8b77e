import { McpApp } from "roundtrip-mcp";
import { PreferenceTools } from "./preference-tools";

// The server a stdio test spawns: one process, its own ephemeral key.
McpApp.create({ components: [PreferenceTools], state: { ephemeral: true } }).serveStdio();
