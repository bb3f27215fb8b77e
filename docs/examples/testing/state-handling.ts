import { accept, createTestClient, tamper, type TestClient } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

const INVALID_STATE = { code: -32602, message: "Invalid or expired request state" };

describe("choose_preferences, state handling", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient([PreferenceTools], { capabilities: { elicitation: {} } });
  });
  afterAll(() => client.close());

  it("refuses a tampered state", async () => {
    const round1 = await client.callTool("choose_preferences");
    const forged = await round1.withState(tamper(round1.requestState!)).answer({ color: accept({ color: "red" }) });
    expect(forged.status).toBe("error");
    expect(forged.error).toEqual(INVALID_STATE);
  });

  it("refuses an expired state", async () => {
    const round1 = await client.callTool("choose_preferences");
    client.clock.advance(301);
    expect((await round1.answer({ color: accept({ color: "red" }) })).error).toEqual(INVALID_STATE);
  });

  it("refuses a state presented by another principal", async () => {
    const round1 = await client.as("alice").callTool("choose_preferences");
    const stolen = await round1.as("mallory").answer({ color: accept({ color: "red" }) });
    expect(stolen.error).toEqual(INVALID_STATE);
  });

  it("re-reads capabilities on every round", async () => {
    const round1 = await client.callTool("choose_preferences");
    const dropped = await round1.answer({ color: accept({ color: "red" }) }, { capabilities: {} });
    expect(dropped.error).toEqual({
      code: -32021,
      message:
        "Missing required client capability: elicitation. This request did not declare it in _meta " +
        "io.modelcontextprotocol/clientCapabilities (it declared no capabilities); a request that declares elicitation there is asked.",
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});
