import "reflect-metadata";
import { McpApp } from "roundtrip-mcp";
import { Palette } from "../interactive/declarative";

// stdout carries the protocol; the app's logger writes JSON lines to stderr.
const app = McpApp.create({ components: [Palette], state: { keysFromEnv: "STATE_KEYS" } });
app.serveStdio();

// A graceful stop: requests in flight are answered first (up to 10 s).
const stop = () => void app.close().then(() => process.exit(0), () => process.exit(1));
process.once("SIGTERM", stop);
process.stdin.once("end", stop);
