#!/usr/bin/env node
// The `roundtrip-mcp` command (package.json "bin"): init, dev, inspect, install.
import { runCli } from "./program";

void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
