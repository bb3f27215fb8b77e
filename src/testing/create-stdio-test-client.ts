import { ClientHost } from "./client-host";
import { MessageChannel } from "./message-channel";
import { StdioChildTransport, type StdioServerCommand } from "./stdio-child-transport";
import { TestClient, type TestClientOptions } from "./test-client";

export interface StdioTestClientOptions extends TestClientOptions {
  /**
   * An environment variable the server reads as its principal (for example
   * `McpApp.create({ localPrincipal: process.env.TEST_PRINCIPAL ?? null })`). With it,
   * `client.as(principal)` spawns a server process of its own with the variable set (unset for
   * null); without it, `as` throws.
   */
  principalEnv?: string;
}

/**
 * A test client for a server in a child process on stdio: newline-delimited JSON-RPC on its
 * stdin/stdout, shut down by closing stdin (then SIGTERM, then SIGKILL). The server's clock
 * lives in the child, so `client.clock` is not available here.
 *
 * @example const client = await createStdioTestClient({ command: process.execPath, args: ["dist/sample/preferences/main-stdio.js"] }, { capabilities: { elicitation: {} } });
 */
export async function createStdioTestClient(server: StdioServerCommand, options: StdioTestClientOptions = {}): Promise<TestClient> {
  const { principalEnv, ...defaults } = options;
  if (typeof server?.command !== "string" || server.command === "")
    throw new TypeError("createStdioTestClient: server.command is required");
  const host = new ClientHost({
    boundary: "stdio",
    noClockReason:
      "the server runs in a child process, so its clock is not the test's; test expiry in-process or over HTTP with createTestClient/createHttpTestClient",
    timeoutMs: 30_000,
    open: async (principal, listeners) => {
      const env = principal === undefined ? server.env : { ...server.env, [principalEnv!]: principal.principal ?? undefined };
      const transport = new StdioChildTransport({ ...server, env });
      return MessageChannel.open("stdio", transport, listeners, () => transport.describeEnd());
    },
    checkPrincipal: (_principal, scopes) => {
      if (scopes !== undefined)
        throw new Error(
          "client.as: scopes without an authorization server work in-process (createTestClient) and over HTTP on the app (createHttpTestClient); for a server process, run one, see docs/authorization.md",
        );
      if (principalEnv === undefined) {
        throw new Error(
          "client.as: a stdio server has one principal per process; give createStdioTestClient the principalEnv option (a variable the server reads as its localPrincipal) to spawn one per principal",
        );
      }
    },
    dispose: async () => undefined,
  });
  await host.channel(undefined);
  return TestClient.fromHost(host, defaults);
}
