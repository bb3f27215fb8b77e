// Test clients of roundtrip-mcp/testing over each boundary, for suites that run once per
// boundary: in-process and HTTP serve a ready app built with a test clock (so client.clock
// works); stdio spawns the compiled fixture server (test/support/fixture-server.ts), whose
// principal comes from FIXTURE_PRINCIPAL (so client.as works there too).
import {
  createHttpTestClient,
  createStdioTestClient,
  createTestClient,
  createTestClock,
  type TestClient,
  type TestClientOptions,
  type TestClock,
} from "roundtrip-mcp/testing";
import type { McpApp, McpAppOptions } from "../../src/index";
import { fixtureCommand } from "./fixture-server";

export type KitBoundary = "in-process" | "stdio" | "http";
export const KIT_BOUNDARIES: KitBoundary[] = ["in-process", "stdio", "http"];

/**
 * A client of `fixture` over `boundary`. In-process and HTTP build the app with `create` and a
 * test clock; the suite closes it (`client.app.close()`) after the client.
 */
export async function kitClient(
  boundary: KitBoundary,
  fixture: string,
  create: (overrides: Partial<McpAppOptions>) => McpApp,
  secret: string,
  options: TestClientOptions = {},
): Promise<TestClient> {
  if (boundary === "stdio") return createStdioTestClient(fixtureCommand(fixture), { ...options, principalEnv: "FIXTURE_PRINCIPAL" });
  const clock: TestClock = createTestClock();
  const app = create({ state: { secret, now: clock.now } });
  return boundary === "http" ? createHttpTestClient(app, { ...options, clock }) : createTestClient(app, { ...options, clock });
}
