// Pins the secured sample (npm run start:secured: dist/sample/preferences/main-secured.js) as a
// real child process trusting a real oidc-provider (OAUTH_ISSUER), with the scopes the issue lists:
// - it prints its canonical URL, and serves the metadata for exactly that resource
// - no token: 401 with resource_metadata and scope; preferences:read runs choose_preferences,
//   preview_theme, the summary template and the prompt, and is refused reset_preferences (403);
//   preferences:admin runs reset_preferences; preferences implies both
// - without OAUTH_ISSUER it exits 1 naming the variable
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { AuthorizationServer } from "../oauth/authorization-server";

const ROOT = join(__dirname, "..", "..");
const MAIN = join(ROOT, "dist", "sample", "preferences", "main-secured.js");
const FORM = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
};

describe("the secured preferences sample (npm run start:secured)", () => {
  let as: AuthorizationServer;
  let child: ChildProcess;
  let url: string;
  let stderr = "";

  beforeAll(async () => {
    if (!existsSync(MAIN)) execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "ignore" });
    as = await AuthorizationServer.start();
    child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: "0", OAUTH_ISSUER: as.issuer },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the sample exited ${code}: ${stderr}`)));
    });
    url = line.replace("secured preferences sample listening on ", "");
  });
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await as?.close();
  });

  const post = async (token: string | undefined, method: string, params: Record<string, unknown>, name?: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(name !== undefined && { "mcp-name": name }),
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: FORM } }),
    });
  const tool = (token: string, name: string) => post(token, "tools/call", { name, arguments: {} }, name);
  const metadataUrl = () => url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");

  it("prints its canonical URL and publishes the metadata for exactly it", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const metadata = await (await fetch(metadataUrl())).json();
    expect(metadata).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      scopes_supported: ["preferences:read", "preferences:admin", "preferences"],
      bearer_methods_supported: ["header"],
    });
  });

  it("challenges a request without a token", async () => {
    const response = await post(undefined, "tools/list", {});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${metadataUrl()}", scope="preferences:read preferences:admin"`,
    );
  });

  it("lets preferences:read use every read component and refuses reset_preferences 403", async () => {
    const token = await as.token(url, ["preferences:read"]);
    for (const name of ["choose_preferences", "preview_theme"])
      expect([name, (await (await tool(token, name)).json()).result?.resultType]).toEqual([name, "input_required"]);
    const templates = await (await post(token, "resources/templates/list", {})).json();
    const uri = (templates.result.resourceTemplates[0].uriTemplate as string).replace(/\{[^}]+\}/g, "red");
    const read = await post(token, "resources/read", { uri }, uri);
    expect(read.status).toBe(200);
    expect((await read.json()).result.resultType).toBe("input_required");
    const prompt = await post(token, "prompts/get", { name: "preferences_prompt" }, "preferences_prompt");
    expect(prompt.status).toBe(200);
    expect((await prompt.json()).result.resultType).toBe("input_required");
    const refused = await tool(token, "reset_preferences");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="The access token lacks a scope this operation needs", resource_metadata="${metadataUrl()}", scope="preferences:admin"`,
    );
  });

  it("lets preferences:admin reset, and preferences do both", async () => {
    const admin = await as.token(url, ["preferences:admin"]);
    expect((await (await tool(admin, "reset_preferences")).json()).result.resultType).toBe("input_required");
    expect((await tool(admin, "choose_preferences")).status).toBe(403);
    const both = await as.token(url, ["preferences"]);
    expect((await tool(both, "reset_preferences")).status).toBe(200);
    expect((await tool(both, "choose_preferences")).status).toBe(200);
  });

  it("refuses to start without OAUTH_ISSUER, naming it", async () => {
    const lone = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: "0", OAUTH_ISSUER: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    lone.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => lone.once("exit", resolve));
    expect(code).toBe(1);
    expect(err).toContain("OAUTH_ISSUER must name the authorization server's issuer");
  });
});
