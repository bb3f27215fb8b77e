// The OAuth 2.1 resource server over real HTTP: the testing kit's HTTP client stands in for the
// authorization server (client.as(principal, { scopes }) grants exactly those scopes), so the
// scopes declared on the components are checked as they are in production.
import "reflect-metadata";
import { accept, createHttpTestClient, MemoryLogger, type TestClient } from "roundtrip-mcp/testing";
import { createApp } from "./app";
import { httpAuth } from "./http-auth";

describe("OAuth scopes over HTTP", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createHttpTestClient(createApp({ logger: new MemoryLogger() }), { capabilities: { elicitation: {} } });
  });
  afterAll(async () => {
    await client.close();
    await client.app.close();
  });

  const toolNames = async (who: TestClient) =>
    ((await who.request("tools/list")).result as { tools: { name: string }[] }).tools.map((t) => t.name);

  it("lets a reader see no write tool, and refuses it the call with 403", async () => {
    const reader = client.as("ada", { scopes: ["tickets:read"] });
    expect(await toolNames(reader)).not.toContain("open_ticket");
    const refused = await reader.callTool("open_ticket", { title: "Not allowed" });
    expect(refused.status).toBe("error");
    expect(refused.round.http?.status).toBe(403);
  });

  it("lets a writer open a ticket", async () => {
    const writer = client.as("grace", { scopes: ["tickets"] });
    const round2 = await (await writer.callTool("open_ticket", { title: "Allowed" })).answer({ priority: accept({ priority: "low" }) });
    const done = await round2.answer({ confirm: accept({ confirm: true }) });
    expect(done.result.structuredContent).toMatchObject({ opened: true });
  });

  it("needs OAUTH_ISSUER, and names it when it is missing", () => {
    const saved = process.env.OAUTH_ISSUER;
    delete process.env.OAUTH_ISSUER;
    try {
      expect(() => httpAuth(3000)).toThrow(/OAUTH_ISSUER must name the authorization server/);
      process.env.OAUTH_ISSUER = "https://auth.example.com";
      expect(httpAuth(3000).resource).toBe("http://localhost:3000/mcp");
    } finally {
      if (saved === undefined) delete process.env.OAUTH_ISSUER;
      else process.env.OAUTH_ISSUER = saved;
    }
  });
});
