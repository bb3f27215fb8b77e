#!/usr/bin/env node
// The `roundtrip-mcp` command (package.json "bin"): init, dev, inspect, server-json, install.
import { runCli } from "./program";

runCli(process.argv.slice(2)).then(
  // What went to a pipe is written first; then the process ends, even if a module inspect loaded
  // left a timer or a socket open.
  (code) => process.stdout.write("", () => process.exit(code)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
