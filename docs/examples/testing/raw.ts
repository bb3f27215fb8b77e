import { createTestClient, type TestClient } from "roundtrip-mcp/testing";
import { PreferenceTools } from "./preference-tools";

describe("the exact wire", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient([PreferenceTools]);
  });
  afterAll(() => client.close());

  it("answers -32021 when the client declares no elicitation", async () => {
    const response = await client.raw("tools/call", { name: "choose_preferences", arguments: {} });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      error: {
        code: -32021,
        message: expect.stringContaining("Missing required client capability: elicitation. This request did not declare it"),
        data: { requiredCapabilities: { elicitation: {} } },
      },
    });
  });

  it("refuses a request without the _meta envelope", async () => {
    const response = await client.raw("tools/list", { _meta: undefined });
    expect(response.error?.code).toBe(-32602);
  });
});
