import "reflect-metadata";
import { createTestClient, type TestClient } from "roundtrip-mcp/testing";
import { GreeterTools } from "./greeter";

describe("greet", () => {
  let client: TestClient;
  beforeAll(async () => {
    // An in-process client over the real dispatcher and the SDK's wire path.
    client = await createTestClient([GreeterTools]);
  });
  afterAll(() => client.close());

  it("greets by name", async () => {
    const flow = await client.callTool("greet", { name: "Ada" });
    expect(flow.status).toBe("complete");
    expect(flow.text).toBe("Hello, Ada!");
  });

  it("names the failing field when the arguments are wrong", async () => {
    const flow = await client.callTool("greet", { name: 42 });
    expect(flow.result.isError).toBe(true);
    expect(flow.text).toContain("name: isString");
  });
});
