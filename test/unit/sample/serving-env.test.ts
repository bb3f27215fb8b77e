// Pins the preferences sample's serving environment (sample/preferences/serving-env.ts): the
// defaults (127.0.0.1:3000, the health endpoints on), each variable reaching its option, and a
// value that is not a whole positive number refused naming the variable.
import { listenOptions, servingFromEnv } from "../../../sample/preferences/serving-env";

describe("servingFromEnv", () => {
  it("serves 127.0.0.1:3000 with the health endpoints by default", () => {
    const serving = servingFromEnv({});
    expect(serving).toEqual({ host: "127.0.0.1", port: 3000, sessions: {} });
    expect(listenOptions(serving)).toEqual({ host: "127.0.0.1", port: 3000, path: "/mcp", health: true });
  });

  it("takes every tuned option from its variable", () => {
    const serving = servingFromEnv({
      PORT: "0",
      HOST: "0.0.0.0",
      ALLOWED_HOSTS: "mcp.example.com, app ,",
      MCP_POLL_AFTER_MS: "20000",
      MCP_RETRY_MS: "500",
      MCP_TAKEOVER_AFTER_MS: "3000",
      MCP_DRAIN_TIMEOUT_MS: "15000",
    });
    expect(serving).toEqual({
      host: "0.0.0.0",
      port: 0,
      allowedHosts: ["mcp.example.com", "app"],
      sessions: { pollAfterMs: 20_000, retryMs: 500, takeoverAfterMs: 3_000 },
      drainTimeoutMs: 15_000,
    });
    expect(listenOptions(serving)).toMatchObject({ allowedHosts: ["mcp.example.com", "app"], drainTimeoutMs: 15_000 });
  });

  it("refuses a value that is not a whole positive number, naming the variable", () => {
    expect(() => servingFromEnv({ MCP_POLL_AFTER_MS: "5s" })).toThrow(
      'MCP_POLL_AFTER_MS must be a positive whole number of milliseconds, got "5s"',
    );
    expect(() => servingFromEnv({ MCP_DRAIN_TIMEOUT_MS: "0" })).toThrow("MCP_DRAIN_TIMEOUT_MS");
    expect(() => servingFromEnv({ PORT: "70000" })).toThrow("PORT must be an integer from 0 to 65535");
  });
});
