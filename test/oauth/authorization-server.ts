// Starts test/oauth/oidc-harness.mjs (a real oidc-provider) as a child process on 127.0.0.1 and
// gives the tests its issuer, tokens from its token endpoint, and its signing key for forgeries.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";

export interface HarnessFacts {
  issuer: string;
  clientId: string;
  clientSecret: string;
  introspector: { id: string; secret: string };
  /** A resource server whose client id and secret hold characters form-urlencoding changes. */
  oddIntrospector: { id: string; secret: string };
  signingKey: { kid: string; [field: string]: unknown };
}

export class AuthorizationServer {
  private readonly lines: string[] = [];
  private waiting: ((line: string) => void) | undefined;
  stderr = "";

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    public facts: HarnessFacts,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<AuthorizationServer> {
    const child = spawn(process.execPath, [join(__dirname, "oidc-harness.mjs"), "0"], { env: { ...process.env, ...env }, stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const reader = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      reader.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the authorization server exited (${code}): ${stderr}`)));
    });
    const server = new AuthorizationServer(child, JSON.parse(first) as HarnessFacts);
    reader.on("line", (line) => (server.waiting ? server.waiting(line) : server.lines.push(line)));
    child.stderr.on("data", (chunk: Buffer) => (server.stderr += chunk.toString()));
    return server;
  }

  get issuer(): string {
    return this.facts.issuer;
  }

  /** A new signing key (a new kid) at the same issuer; tokens from now on are signed with it. */
  async rotate(): Promise<void> {
    const next = new Promise<string>((resolve) => (this.waiting = resolve));
    this.child.stdin.write("rotate\n");
    this.facts = JSON.parse(await next) as HarnessFacts;
    this.waiting = undefined;
  }

  /** An access token by client credentials for `resource` and `scopes`, as the token endpoint issues it. */
  async token(resource: string, scopes: readonly string[]): Promise<string> {
    const basic = Buffer.from(`${this.facts.clientId}:${this.facts.clientSecret}`).toString("base64");
    const response = await fetch(`${this.issuer}/token`, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: scopes.join(" "), resource }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    if (!body.access_token) throw new Error(`token request failed: ${body.error}: ${body.error_description}`);
    return body.access_token;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end("exit\n");
    await exited;
  }
}
