import { accept, createTestClient, type TestClient } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

describe("choose_preferences, round by round", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient([PreferenceTools], { capabilities: { elicitation: { form: {} } } });
  });
  afterAll(() => client.close());

  it("asks a colour, then a style of that colour", async () => {
    const round1 = await client.callTool("choose_preferences");
    expect(round1.status).toBe("input_required");
    expect(round1.asked("color").message).toBe("Which colour?");
    expect(round1.asked("color").choices).toEqual(["red", "green", "blue"]);

    const round2 = await round1.answer({ color: accept({ color: "green" }) });
    expect(round2.asked("style").message).toBe("Which green style?");
    expect(round2.asked("style").choices).toEqual(["forest", "mint"]);

    const done = await round2.answer({ style: accept({ style: "forest" }) });
    expect(done.status).toBe("complete");
    expect(done.result.structuredContent).toEqual({ color: "green", style: "forest" });
    expect(done.rounds).toBe(3);
  });
});
