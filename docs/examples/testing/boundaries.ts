import path from "node:path";
import { accept, createHttpTestClient, createStdioTestClient, type TestClient } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

const capabilities = { elicitation: {} };
const clients: Record<string, () => Promise<TestClient>> = {
  http: () => createHttpTestClient([PreferenceTools], { capabilities }),
  stdio: () =>
    createStdioTestClient(
      { command: process.execPath, args: ["-r", "ts-node/register/transpile-only", path.join(__dirname, "main-stdio.ts")] },
      { capabilities },
    ),
};

describe.each(Object.entries(clients))("choose_preferences over %s", (_boundary, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it("takes three rounds", async () => {
    const round1 = await client.callTool("choose_preferences");
    const round2 = await round1.answer({ color: accept({ color: "blue" }) });
    const done = await round2.answer({ style: accept({ style: "sky" }) });
    expect(done.result.structuredContent).toEqual({ color: "blue", style: "sky" });
    expect(done.rounds).toBe(3);
    expect(client.unexpectedMessages).toEqual([]);
  });
});
