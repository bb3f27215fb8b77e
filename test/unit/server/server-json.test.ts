// Pins serverJson(app, packageJson, options), the MCP Registry's server.json from the app:
// - what it writes validates against the registry's published 2025-12-11 schema, for a stdio
//   package, a package serving Streamable HTTP locally, remotes with and without OAuth, and
//   remotes alone;
// - the identity comes from the app (title, description, icons, websiteUrl, repository), package.json
//   filling the description, homepage and repository (git+https, shorthand) the app leaves out;
// - the environment the app declares, `state.keysFromEnv`'s as required and secret;
// - refusals naming the fix: no mcpName (the app's own named when it has one), mcpName not reverse-DNS or other than the app's, no or a
//   long description, a version range, no package name, nothing to run or reach, a bad remote or
//   package URL.
import "reflect-metadata";
import { McpApp, serverJson, ServerJsonError, type McpAppOptions, type PackageJson } from "../../../src/index";
import { MemoryLogger } from "../../../src/testing/index";
import { serverJsonErrors } from "../../support/discovery-schemas";

const PACKAGE: PackageJson = {
  name: "@acme/weather-mcp",
  version: "2.1.0",
  description: "Weather forecasts over MCP",
  mcpName: "io.github.acme/weather",
  homepage: "https://acme.example.com/weather",
  repository: { type: "git", url: "git+https://github.com/acme/weather-mcp.git", directory: "packages/server" },
};
const appWith = (extra: Partial<McpAppOptions> = {}) =>
  McpApp.create({ components: [], logger: new MemoryLogger(), state: { keysFromEnv: "WEATHER_STATE_KEYS" }, ...extra });

describe("serverJson()", () => {
  const previous = process.env.WEATHER_STATE_KEYS;
  beforeAll(() => (process.env.WEATHER_STATE_KEYS = `k1:${Buffer.alloc(32, 7).toString("base64")}`));
  afterAll(() => (previous === undefined ? delete process.env.WEATHER_STATE_KEYS : (process.env.WEATHER_STATE_KEYS = previous)));

  it("writes a valid server.json: the npm package over stdio, the app's environment, package.json's identity where the app has none", () => {
    const app = appWith({
      title: "Weather",
      environment: [{ name: "WEATHER_API_KEY", description: "The weather service's key", isRequired: true, isSecret: true }],
    });
    const document = serverJson(app, PACKAGE);
    expect(serverJsonErrors(document)).toEqual([]);
    expect(document).toEqual({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: "io.github.acme/weather",
      description: "Weather forecasts over MCP",
      title: "Weather",
      version: "2.1.0",
      websiteUrl: "https://acme.example.com/weather",
      repository: { url: "https://github.com/acme/weather-mcp", source: "github", subfolder: "packages/server" },
      packages: [
        {
          registryType: "npm",
          identifier: "@acme/weather-mcp",
          version: "2.1.0",
          transport: { type: "stdio" },
          environmentVariables: [
            {
              name: "WEATHER_STATE_KEYS",
              description: expect.stringContaining("key ring sealing requestState"),
              isRequired: true,
              isSecret: true,
            },
            { name: "WEATHER_API_KEY", description: "The weather service's key", isRequired: true, isSecret: true },
          ],
        },
      ],
    });
  });

  it("takes the app's identity over package.json's, and writes remotes (OAuth ones with a required Authorization header)", () => {
    const app = appWith({
      description: "Forecasts and alerts",
      websiteUrl: "https://weather.example.com",
      icons: [{ src: "https://weather.example.com/icon.png", mimeType: "image/png" }],
      repository: { url: "https://gitlab.com/acme/weather", source: "gitlab" },
      mcpName: "io.github.acme/weather",
    });
    const document = serverJson(
      app,
      { ...PACKAGE, repository: "github:acme/other" },
      {
        package: { url: "http://localhost:3000/mcp" },
        remotes: ["https://weather.example.com/mcp", { url: "https://eu.weather.example.com/mcp", oauth: true }],
      },
    );
    expect(serverJsonErrors(document)).toEqual([]);
    expect(document).toMatchObject({
      description: "Forecasts and alerts",
      websiteUrl: "https://weather.example.com",
      icons: [{ src: "https://weather.example.com/icon.png", mimeType: "image/png" }],
      repository: { url: "https://gitlab.com/acme/weather", source: "gitlab" },
      packages: [{ transport: { type: "streamable-http", url: "http://localhost:3000/mcp" } }],
      remotes: [
        { type: "streamable-http", url: "https://weather.example.com/mcp" },
        {
          type: "streamable-http",
          url: "https://eu.weather.example.com/mcp",
          headers: [{ name: "Authorization", isRequired: true, isSecret: true }],
        },
      ],
    });
    const remoteOnly = serverJson(app, PACKAGE, { package: false, remotes: ["https://weather.example.com/mcp"] });
    expect(serverJsonErrors(remoteOnly)).toEqual([]);
    expect(remoteOnly).not.toHaveProperty("packages");
    expect(serverJson(appWith(), { ...PACKAGE, repository: "acme/weather" }).repository).toEqual({
      url: "https://github.com/acme/weather",
      source: "github",
    });
  });

  it.each([
    ["no mcpName", { mcpName: undefined }, {}, 'package.json has no mcpName: add "mcpName": "io.github.<user>/<server>"'],
    [
      "an mcpName that is not reverse-DNS",
      { mcpName: "weather" },
      {},
      'package.json\'s mcpName must be reverse-DNS with one slash, such as "io.github.<user>/<server>"',
    ],
    [
      "an mcpName other than the app's",
      {},
      { mcpName: "io.github.acme/other" },
      'package.json\'s mcpName "io.github.acme/weather" differs from the app\'s mcpName "io.github.acme/other"',
    ],
    ["no description", { description: undefined }, {}, "a server.json needs a description of 1-100 characters"],
    [
      "a description over 100 characters",
      { description: "d".repeat(101) },
      {},
      "a server.json needs a description of 1-100 characters (McpApp.create({ description }) or package.json's); it has 101",
    ],
    ["a version range", { version: "^2.1.0" }, {}, 'package.json needs an exact version ("1.2.3"), got "^2.1.0"'],
    ["no package name", { name: undefined }, {}, "package.json needs a name: the npm package hosts install"],
  ])("refuses %s, naming the fix", (_, pkg, app, message) => {
    expect(() => serverJson(appWith(app), { ...PACKAGE, ...pkg })).toThrow(new ServerJsonError(message).message);
    expect(() => serverJson(appWith(app), { ...PACKAGE, ...pkg })).toThrow(ServerJsonError);
  });

  it("names the app's own mcpName as the one to add when package.json has none", () => {
    expect(() => serverJson(appWith({ mcpName: "io.github.acme/weather" }), { ...PACKAGE, mcpName: undefined })).toThrow(
      'package.json has no mcpName: add "mcpName": "io.github.acme/weather" (reverse-DNS;',
    );
  });

  it("refuses nothing to run or reach, and a remote or a package URL that is not an http(s) URL", () => {
    expect(() => serverJson(appWith(), PACKAGE, { package: false })).toThrow("a server.json needs a package or at least one remote");
    expect(() => serverJson(appWith(), PACKAGE, { package: { url: "localhost:3000/mcp" } })).toThrow(
      'package.url must be the http(s) URL the package serves when run, such as "http://localhost:3000/mcp", got "localhost:3000/mcp"',
    );
    expect(() => serverJson(appWith(), PACKAGE, { remotes: ["ws://weather.example.com"] })).toThrow(
      'remotes[0]: url must be the deployed server\'s http(s) URL, got "ws://weather.example.com"',
    );
  });
});
