import { callAsView, createTestClient, readView, viewLinkOf, type TestClient } from "roundtrip-mcp/testing";
import { createWeatherApp } from "./weather";

describe("the weather dashboard", () => {
  let client: TestClient;
  beforeAll(async () => (client = await createTestClient(createWeatherApp())));
  afterAll(() => client.close());

  it("links the tool to its view under both keys", async () => {
    const link = await viewLinkOf(client, "weather");
    expect(link.resourceUri).toBe("ui://weather/dashboard");
    expect(link.legacyResourceUri).toBe("ui://weather/dashboard");
    expect(link.visibility).toEqual(["model", "app"]);
  });

  it("serves the view with its CSP", async () => {
    const view = await readView(client, "ui://weather/dashboard");
    expect(view.html).toMatch(/^<!doctype html>/);
    expect(view.ui).toEqual({ csp: { connectDomains: ["https://api.weather.example"] }, prefersBorder: true });
  });

  it("answers a view's call, and a caller without views in text", async () => {
    const refreshed = await callAsView(client, "refresh", { city: "Oslo" });
    expect(refreshed.result.structuredContent).toEqual({ city: "Oslo", celsius: 5, sky: "clearing" });
    const plain = await client.callTool("weather", { city: "Oslo" });
    expect(plain.result.content).toEqual([{ type: "text", text: "Oslo: 4 °C, light rain." }]);
    await expect(callAsView(client, "nonexistent")).rejects.toThrow("lists no tool");
  });
});
