import "reflect-metadata";
import { McpApp } from "roundtrip-mcp";
import { Palette } from "../interactive/declarative";

// stdout carries the protocol; the app's logger writes JSON lines to stderr.
const app = McpApp.create({ components: [Palette], state: { keysFromEnv: "STATE_KEYS" } });
app.serveStdio();
