import type { McpApp } from "../server/mcp-app";
import type { ServeOptions } from "../server/mcp-app-options";
import { ClientHost, type PrincipalChoice } from "./client-host";
import { kitApp, type KitAppOptions } from "./kit-app";
import { MessageChannel } from "./message-channel";
import { TestClient, type TestClientOptions } from "./test-client";

/** Options of `createTestClient`: request defaults, and how to build the app from components. */
export interface CreateTestClientOptions extends TestClientOptions, KitAppOptions {}

/**
 * An in-process test client: the app serves one connection over the SDK's in-memory transport,
 * through the same entry as stdio (`McpApp.connect`), so every request takes the real wire path.
 * Give component classes and the kit builds the app (random secret, `MemoryLogger`, a test clock
 * behind `client.clock`); or give a ready `McpApp`. `client.as(principal)` opens a connection of
 * its own with `McpApp.connect({ principal })`; `client.as(principal, { scopes })` one whose
 * requests are authorized for exactly those scopes, as a verified token would be, without an
 * authorization server.
 *
 * @example const client = await createTestClient([PreferenceTools], { capabilities: { elicitation: { form: {} } } });
 */
export async function createTestClient(target: McpApp | readonly Function[], options: CreateTestClientOptions = {}): Promise<TestClient> {
  const { app: appOptions, clock: clockOption, ...defaults } = options;
  const { app, owned, clock, noClockReason } = kitApp(target, { app: appOptions, clock: clockOption });
  const host = new ClientHost({
    boundary: "in-process",
    app,
    clock,
    noClockReason,
    timeoutMs: 10_000,
    open: async (principal, listeners) => MessageChannel.open("in-process", await app.connect(connectOptions(principal)), listeners),
    checkPrincipal: () => undefined,
    dispose: async () => {
      if (owned) await app.close();
    },
  });
  // Connect now, so a broken app fails here rather than in the first test.
  await host.channel(undefined);
  return TestClient.fromHost(host, defaults);
}

/** A chosen principal, with scopes when given: then every request is authorized as a token granting them. */
function connectOptions(choice: PrincipalChoice): ServeOptions {
  if (choice === undefined) return {};
  if (choice.scopes === undefined) return { principal: choice.principal };
  const claims = { scope: choice.scopes.join(" "), ...(choice.principal !== null && { sub: choice.principal }) };
  return {
    principal: choice.principal,
    authorization: Object.freeze({
      scopes: Object.freeze([...choice.scopes]),
      claims: Object.freeze(claims),
      subject: choice.principal ?? undefined,
    }),
  };
}
