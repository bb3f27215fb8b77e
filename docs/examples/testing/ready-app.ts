import { McpApp } from "roundtrip-mcp";
import { accept, createTestClient, createTestClock, MemoryLogger } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

it("expires state of an app built by the test", async () => {
  const clock = createTestClock();
  const logger = new MemoryLogger();
  const app = McpApp.create({ components: [PreferenceTools], logger, state: { secret: "a-test-secret-of-at-least-32-bytes!", now: clock.now } });
  const client = await createTestClient(app, { capabilities: { elicitation: {} }, clock });

  const round1 = await client.callTool("choose_preferences");
  client.clock.advance(300);
  expect((await round1.answer({ color: accept({ color: "red" }) })).error.code).toBe(-32602);
  // The wire says only "Invalid or expired request state"; the app's logger says why.
  expect(logger.entries.at(-1)?.fields).toMatchObject({ reason: "expired" });

  await client.close();
  await app.close();
});
