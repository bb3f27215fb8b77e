import { accept, createTestClient, decline, type TestClient } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

describe("choose_preferences, scripted", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient([PreferenceTools], { capabilities: { elicitation: {} } });
  });
  afterAll(() => client.close());

  it("completes from a script of answers", async () => {
    const done = await client.run(
      "tools/call",
      { name: "choose_preferences", arguments: {} },
      { color: accept({ color: "red" }), style: (asked) => accept({ style: asked.choices?.[0] ?? "" }) },
    );
    expect(done.result.structuredContent).toEqual({ color: "red", style: "crimson" });
    expect(done.rounds).toBe(3);
  });

  it("ends when the user declines", async () => {
    const round1 = await client.callTool("choose_preferences");
    const ended = await round1.answer({ color: decline() });
    expect(ended.result.isError).toBe(true);
    expect(ended.text).toBe('The question "color" was declined; the operation ended.');
  });
});
