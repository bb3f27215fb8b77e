// Pins the local authorization server recipe (npm run start:auth-server:
// dist/sample/authorization/local-authorization-server.js) as docs/authorization.md runs it: a real
// child process beside the secured sample (npm run start:secured) trusting it, then
// - the official client 2.4.0's ClientCredentialsProvider, with the client id and secret the recipe
//   prints, follows the sample's 401 challenge, gets a token and completes an @Elicit flow;
// - the token it issues names exactly the MCP server asked for (aud) and is an RFC 9068 JWT;
// - a token for a server it does not know is refused invalid_target, naming that server;
// - a bad AUTH_PORT exits 1 naming the variable.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { freePort } from "../support/free-port";

const ROOT = join(__dirname, "..", "..");
const AUTH_SERVER = join(ROOT, "dist", "sample", "authorization", "local-authorization-server.js");
const SECURED = join(ROOT, "dist", "sample", "preferences", "main-secured.js");
const SECRET = randomBytes(16).toString("hex");

/** Starts a sample and resolves with its first stdout line; a sample that exits first rejects with its stderr. */
function start(main: string, env: Record<string, string>): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [main], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${main} exited ${code}: ${stderr}`)));
  });
  return { child, firstLine };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child?.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("the local authorization server recipe (npm run start:auth-server)", () => {
  let authServer: ChildProcess;
  let secured: ChildProcess;
  let issuer: string;
  let resource: string;

  beforeAll(async () => {
    if (!existsSync(AUTH_SERVER) || !existsSync(SECURED)) execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "ignore" });
    resource = `http://127.0.0.1:${await freePort()}/mcp`;
    const auth = start(AUTH_SERVER, { AUTH_PORT: "0", MCP_RESOURCES: resource, CLIENT_SECRET: SECRET });
    authServer = auth.child;
    issuer = (await auth.firstLine).replace("local authorization server listening on ", "");
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const mcp = start(SECURED, { PORT: new URL(resource).port, OAUTH_RESOURCE: resource, OAUTH_ISSUER: issuer });
    secured = mcp.child;
    expect(await mcp.firstLine).toBe(`secured preferences sample listening on ${resource}`);
  }, 60_000);
  afterAll(async () => {
    await stop(secured);
    await stop(authServer);
  });

  const token = async (scope: string, forResource: string) =>
    fetch(`${issuer}/token`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`mcp-dev-client:${SECRET}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: "client_credentials", scope, resource: forResource }),
    });

  it("lets the official client follow the challenge with the printed client and complete an @Elicit flow", async () => {
    const provider = new ClientCredentialsProvider({ clientId: "mcp-dev-client", clientSecret: SECRET, expectedIssuer: issuer } as never);
    const client = new Client({ name: "local-as-e2e", version: "1.0.0" }, {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      inputRequired: { autoFulfill: true },
    } as never);
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const { message } = request.params as { message: string };
      asked.push(message);
      const content: Record<string, string> = message.startsWith("Which colour") ? { color: "green" } : { style: "mint" };
      return { action: "accept" as const, content };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("reset_preferences");
      const result = await client.callTool({ name: "choose_preferences", arguments: {} });
      expect(result.structuredContent).toEqual({ color: "green", style: "mint" });
      expect(asked).toEqual(["Which colour do you prefer?", "Which green style?"]);
    } finally {
      await client.close();
    }
  });

  it("issues RFC 9068 JWT access tokens naming exactly the MCP server asked for", async () => {
    const response = await token("preferences:read", resource);
    expect(response.status).toBe(200);
    const { access_token: accessToken, scope } = (await response.json()) as { access_token: string; scope: string };
    expect(scope).toBe("preferences:read");
    expect(decodeProtectedHeader(accessToken)).toMatchObject({ typ: "at+jwt", alg: "RS256" });
    expect(decodeJwt(accessToken)).toMatchObject({ iss: issuer, aud: resource, client_id: "mcp-dev-client", scope: "preferences:read" });
  });

  it("refuses a token for an MCP server it was not told about, naming it", async () => {
    const response = await token("preferences:read", "http://127.0.0.1:9/other");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid_target",
      error_description: "this server issues no tokens for http://127.0.0.1:9/other",
    });
  });

  it("exits 1 naming AUTH_PORT when it is not a port", async () => {
    const { child, firstLine } = start(AUTH_SERVER, { AUTH_PORT: "http" });
    await expect(firstLine).rejects.toThrow('AUTH_PORT must be an integer from 0 to 65535, got "http"');
    expect(child.exitCode).toBe(1);
  });
});
