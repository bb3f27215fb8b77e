// Pins the discovery schemas the tests validate against:
// - both copies are byte-identical to what test/support/spec/README.md names (sha256);
// - each rejects what its specification forbids (so a passing check means something): a card
//   without a reverse-DNS name, a description over 100 characters, a remote without a URL; a
//   server.json with a version range as package version, a name without a slash.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { REGISTRY_SCHEMA_FILE, SERVER_CARD_SCHEMA_FILE, serverCardErrors, serverJsonErrors } from "../../support/discovery-schemas";

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const CARD = {
  $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  name: "io.github.acme/weather",
  version: "1.0.0",
  description: "Weather forecasts",
  remotes: [{ type: "streamable-http", url: "https://mcp.example.com/mcp" }],
};
const SERVER_JSON = {
  $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  name: "io.github.acme/weather",
  description: "Weather forecasts",
  version: "1.0.0",
  packages: [{ registryType: "npm", identifier: "@acme/weather", version: "1.0.0", transport: { type: "stdio" } }],
};

describe("discovery schemas", () => {
  it("are the published files, unchanged", () => {
    expect(sha256(SERVER_CARD_SCHEMA_FILE)).toBe("2c772b51edb367f154771d84ddbae87ddba00a624422c8e46f218a9ac03bf042");
    expect(sha256(REGISTRY_SCHEMA_FILE)).toBe("d4c163f299ece68b7432f4e44c4108f2fdb663d99dc088c8344142e5b0a4b520");
  });

  it("accept a valid card and refuse what the draft forbids", () => {
    expect(serverCardErrors(CARD)).toEqual([]);
    expect(serverCardErrors({ ...CARD, name: "weather" })).toEqual([expect.stringContaining("/name must match pattern")]);
    expect(serverCardErrors({ ...CARD, description: "x".repeat(101) })).toEqual(["/description must NOT have more than 100 characters"]);
    expect(serverCardErrors({ ...CARD, remotes: [{ type: "streamable-http" }] })).toEqual(["/remotes/0 must have required property 'url'"]);
  });

  it("accept a valid server.json and refuse what the registry forbids", () => {
    expect(serverJsonErrors(SERVER_JSON)).toEqual([]);
    expect(serverJsonErrors({ ...SERVER_JSON, name: "weather" })).toEqual([expect.stringContaining("/name must match pattern")]);
    const latest = { ...SERVER_JSON, packages: [{ ...SERVER_JSON.packages[0], version: "latest" }] };
    expect(serverJsonErrors(latest)).toEqual(["/packages/0/version must NOT be valid"]);
  });
});
