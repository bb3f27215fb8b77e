import "reflect-metadata";
import { McpApp } from "roundtrip-mcp";

const app = McpApp.create({
  name: "weather",
  version: "2.1.0",
  title: "Weather",
  description: "Forecasts and alerts for any city",
  websiteUrl: "https://weather.example.com",
  mcpName: "io.github.acme/weather",
  repository: { url: "https://github.com/acme/weather", source: "github" },
  environment: [{ name: "WEATHER_API_KEY", description: "The forecast service's key", isRequired: true, isSecret: true }],
  components: [],
  state: { keysFromEnv: "STATE_KEYS" },
});

// GET http://127.0.0.1:3000/mcp/server-card: the card, with CORS, Cache-Control and an ETag.
void app.listen({ port: 3000, serverCard: true });
