import "reflect-metadata";
import { readFileSync, writeFileSync } from "node:fs";
import { McpApp, serverJson, type PackageJson } from "roundtrip-mcp";

const app = McpApp.create({
  description: "Forecasts and alerts for any city",
  mcpName: "io.github.acme/weather",
  environment: [{ name: "WEATHER_API_KEY", description: "The forecast service's key", isRequired: true, isSecret: true }],
  components: [],
  state: { keysFromEnv: "STATE_KEYS" },
});

const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as PackageJson;
// The npm package over stdio, plus where the server is deployed (OAuth on there).
const document = serverJson(app, packageJson, { remotes: [{ url: "https://weather.example.com/mcp", oauth: true }] });
writeFileSync("server.json", `${JSON.stringify(document, null, 2)}\n`);
